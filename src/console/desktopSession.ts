// Whether a person sits at this machine's screen: what opening a page in a browser and a desktop
// notification need. Linux: a graphical session names its display (X11 or Wayland); macOS: a session
// not over SSH. Elsewhere, or over SSH without a display, there is nobody to show anything to.

export type DesktopKind = 'linux' | 'macos';

export function desktopSession(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): DesktopKind | null {
  if (platform === 'darwin') return env.SSH_CONNECTION || env.SSH_TTY ? null : 'macos';
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') return env.DISPLAY || env.WAYLAND_DISPLAY ? 'linux' : null;
  return null;
}
