// The page an unknown route answers with: HTML, as the live service's web framework sends it.

export function html404(method: string, path: string): string {
  const esc = path.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Error</title>
</head>
<body>
<pre>Cannot ${method} ${esc}</pre>
</body>
</html>
`;
}
