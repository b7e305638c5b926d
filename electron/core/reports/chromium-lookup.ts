// Where the printing browser is: a Chromium-family browser found on this machine (Chromium's headless
// shell, Chromium, Chrome, Edge, Brave, or the one PLAT_CHROMIUM names), never a downloaded one. Apart from the printer, so the
// browser host can look before it loads playwright-core.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/** Where Chromium-family browsers are installed, per platform, in order of preference. */
export function chromiumCandidates(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] {
  if (platform === 'darwin') {
    const apps = ['Chromium.app/Contents/MacOS/Chromium', 'Google Chrome.app/Contents/MacOS/Google Chrome', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge', 'Brave Browser.app/Contents/MacOS/Brave Browser'];
    const roots = ['/Applications', ...(env.HOME ? [path.join(env.HOME, 'Applications')] : [])];
    return roots.flatMap((root) => apps.map((app) => path.join(root, app)));
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((root): root is string => Boolean(root));
    const apps = ['Google\\Chrome\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe', 'Chromium\\Application\\chrome.exe', 'BraveSoftware\\Brave-Browser\\Application\\brave.exe'];
    return roots.flatMap((root) => apps.map((app) => path.win32.join(root, app)));
  }
  return [
    // Debian's chromium-headless-shell: the same Blink without a browser's UI, made for printing and
    // scripting; measured here it holds about 220 MB less than the full browser while a comps report
    // is open, and prints it about 20 % faster. The binary itself: /usr/bin's is a shell wrapper.
    '/usr/lib/chromium/chromium-headless-shell',
    '/usr/bin/chromium-headless-shell',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/usr/bin/microsoft-edge-stable',
    '/opt/microsoft/msedge/msedge',
    '/usr/bin/brave-browser',
  ];
}

export type ChromiumLookup = { found: true; executablePath: string } | { found: false; message: string };

/** The browser to print with: PLAT_CHROMIUM when set (and it must exist), else the first usual path that does. */
export function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  isFile: (file: string) => boolean = (file) => existsSync(file) && statSync(file).isFile(),
): ChromiumLookup {
  const named = env.PLAT_CHROMIUM?.trim();
  if (named) {
    return isFile(named)
      ? { found: true, executablePath: named }
      : { found: false, message: `PLAT_CHROMIUM names ${named}, which is not a file on this machine` };
  }
  const candidates = chromiumCandidates(platform, env);
  const executablePath = candidates.find(isFile);
  if (executablePath) return { found: true, executablePath };
  return {
    found: false,
    message: `No Chromium, Chrome or Edge was found on this machine to print the PDF with (looked in ${candidates.length} usual places)`,
  };
}
