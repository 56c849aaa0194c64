// A folder's path as a systemd unit instance name, the way `systemd-escape --path` writes it:
// slashes become "-", and every byte outside [A-Za-z0-9:_.] (and a leading ".") becomes \xNN.
// unescapeSystemdPath turns it back.

export function systemdEscapePath(absolutePath: string): string {
  const trimmed = absolutePath
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
  if (trimmed === '') return '-';
  let out = '';
  const bytes = Buffer.from(trimmed, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const c = String.fromCharCode(b);
    if (c === '/') out += '-';
    else if (/[A-Za-z0-9:_]/.test(c) || (c === '.' && i > 0)) out += c;
    else out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return out;
}

export function unescapeSystemdPath(escaped: string): string {
  if (escaped === '-') return '/';
  const bytes: number[] = [];
  for (let i = 0; i < escaped.length; i++) {
    const c = escaped[i]!;
    const hex = /^\\x([0-9a-fA-F]{2})/.exec(escaped.slice(i));
    if (hex) {
      bytes.push(parseInt(hex[1]!, 16));
      i += 3;
    } else if (c === '-') bytes.push(0x2f);
    else bytes.push(...Buffer.from(c, 'utf8'));
  }
  return `/${Buffer.from(bytes).toString('utf8')}`;
}
