// Resident memory of the whole app from /proc: the host process, and every process it started with
// everything in their process groups (Chromium puts its helpers in the browser's group, and a helper
// that was re-parented still belongs to it), split into the embedded service and the printer (the
// host's printing process with its browser). Resident set sizes are summed as `ps` shows them, so pages shared between Chromium's
// processes count once per process: an upper bound, the figure the targets were set on.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  rssKb: number;
  /** argv[0] (the executable as started), or the kernel's name for it when the command line is unreadable. */
  command: string;
}

export interface AppMemory {
  hostMb: number;
  serviceMb: number;
  /** 0 when no printing browser runs. */
  printerMb: number;
  wholeAppMb: number;
  /** How many processes each part has, for the log. */
  processes: { host: number; service: number; printer: number };
}

const PAGE_KB = 4;

/** One process from its /proc/<pid>/stat line (the name in parentheses may hold spaces and parentheses). */
export function parseStat(stat: string, cmdline: string): ProcessEntry | null {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  // After the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime
  // stime cutime cstime priority nice num_threads itrealvalue starttime vsize rss …
  const rest = stat.slice(close + 2).split(' ');
  const pid = Number(stat.slice(0, open).trim());
  const ppid = Number(rest[1]);
  const pgid = Number(rest[2]);
  const rssPages = Number(rest[21]);
  if (![pid, ppid, pgid, rssPages].every(Number.isFinite)) return null;
  const argv0 = cmdline.split('\0')[0] ?? '';
  return { pid, ppid, pgid, rssKb: rssPages * PAGE_KB, command: argv0 || stat.slice(open + 1, close) };
}

/** Every process this user can see, read from /proc. */
export function readProcesses(proc = '/proc'): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync(proc)) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(path.join(proc, name, 'stat'), 'utf8');
      const cmdline = readFileSync(path.join(proc, name, 'cmdline'), 'utf8');
      const entry = parseStat(stat, cmdline);
      if (entry) entries.push(entry);
    } catch {
      // It exited between the listing and the read.
    }
  }
  return entries;
}

const isBrowser = (entry: ProcessEntry) => /chrom|chrome|msedge|brave/i.test(path.basename(entry.command));

/**
 * The app's memory: `hostPid`, and for each process it started (the service, the printing browser)
 * that process's descendants and every process in a group one of them leads.
 */
export function appMemory(processes: ProcessEntry[], hostPid: number): AppMemory {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of processes) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry]);
  const part = (top: ProcessEntry): ProcessEntry[] => {
    const members = new Map<number, ProcessEntry>();
    const queue = [top];
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (members.has(next.pid)) continue;
      members.set(next.pid, next);
      queue.push(...(children.get(next.pid) ?? []));
    }
    const leaders = new Set([...members.values()].filter((entry) => entry.pgid === entry.pid).map((entry) => entry.pid));
    for (const entry of processes) if (leaders.has(entry.pgid)) members.set(entry.pid, entry);
    return [...members.values()];
  };
  const host = processes.filter((entry) => entry.pid === hostPid);
  // The printer's part is the one with the browser in it (the host's printing process and its Chromium).
  const parts = (children.get(hostPid) ?? []).map((child) => part(child)).map((members) => ({ browser: members.some(isBrowser), members }));
  const service = parts.filter((p) => !p.browser).flatMap((p) => p.members);
  const printer = parts.filter((p) => p.browser).flatMap((p) => p.members);
  const mb = (entries: ProcessEntry[]) => entries.reduce((sum, entry) => sum + entry.rssKb, 0) / 1024;
  const whole = new Map([...host, ...service, ...printer].map((entry) => [entry.pid, entry]));
  return {
    hostMb: mb(host),
    serviceMb: mb(service),
    printerMb: mb(printer),
    wholeAppMb: mb([...whole.values()]),
    processes: { host: host.length, service: service.length, printer: printer.length },
  };
}
