import { describe, expect, it } from 'vitest';
import { appMemory, parseStat, readProcesses, type ProcessEntry } from './process-memory.ts';

const entry = (pid: number, ppid: number, pgid: number, rssMb: number, command: string): ProcessEntry => ({ pid, ppid, pgid, rssKb: rssMb * 1024, command });

describe('appMemory', () => {
  // The bench (1) started the host (10) in its own group; the host started the service (11) and its
  // printing process (15), which started the browser (20, leading group 20); the browser's crash
  // handler (25) was re-parented to init.
  const processes = [
    entry(1, 0, 1, 50, 'node'),
    entry(10, 1, 1, 120, '/usr/bin/node'),
    entry(11, 10, 1, 60, '/usr/bin/node'),
    entry(15, 10, 1, 40, '/usr/bin/node'),
    entry(20, 15, 20, 160, '/usr/lib/chromium/chromium'),
    entry(21, 20, 20, 150, '/usr/lib/chromium/chromium'),
    entry(22, 21, 20, 100, '/usr/lib/chromium/chromium'),
    entry(25, 1, 20, 10, '/usr/lib/chromium/chrome_crashpad_handler'),
    entry(30, 1, 30, 999, '/usr/bin/chromium'),
  ];

  it('counts the host, the service and the whole printing browser group, nothing of its parent', () => {
    expect(appMemory(processes, 10)).toEqual({
      hostMb: 120,
      serviceMb: 60,
      printerMb: 460,
      wholeAppMb: 640,
      processes: { host: 1, service: 1, printer: 5 },
    });
  });

  it('without a printing browser, the printer holds nothing', () => {
    const memory = appMemory(processes.filter((p) => p.pgid !== 20 && p.pid !== 15), 10);
    expect(memory.printerMb).toBe(0);
    expect(memory.wholeAppMb).toBe(180);
  });
});

describe('parseStat', () => {
  it('reads a name with spaces and parentheses, and the resident pages', () => {
    const stat = '4242 (Web Content (x)) S 4200 4200 4200 0 -1 4194560 1 0 0 0 1 1 0 0 20 0 12 0 100 1000000 2560 18446744073709551615';
    expect(parseStat(stat, '/usr/lib/chromium/chromium\0--type=renderer\0')).toEqual({ pid: 4242, ppid: 4200, pgid: 4200, rssKb: 10240, command: '/usr/lib/chromium/chromium' });
  });

  it('reads this process from /proc', () => {
    const self = readProcesses().find((p) => p.pid === process.pid);
    expect(self?.rssKb).toBeGreaterThan(0);
  });
});
