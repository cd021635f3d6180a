// A real nginx in front of server instances, for the cluster tests (*.cluster.test.ts only).
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';

/** The nginx binary: NGINX_BIN when set, else /usr/sbin/nginx, else `nginx` on the PATH. */
export function findNginx(): string {
  const candidates = process.env.NGINX_BIN
    ? [process.env.NGINX_BIN]
    : [
        '/usr/sbin/nginx',
        ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'nginx')),
      ];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  throw new Error(
    'nginx not found: the cluster tests need it (Debian: apt-get install nginx, or set NGINX_BIN)',
  );
}

export interface NginxOptions {
  /** A private temporary folder: config, pid file, logs and nginx's temp folders go there. */
  dir: string;
  /** The port nginx listens on (127.0.0.1 only). */
  port: number;
  /** The instances behind it, by name (`a`, `b`): their ports on 127.0.0.1. */
  upstreams: Record<string, number>;
  /**
   * Instances serving device sync alone (INSTANCE_ROLE=sync), by name: when given, `/api/sync/`
   * goes to them and everything else to `upstreams` (docs/decisions/025-sync-on-instances-of-its-own.md).
   */
  syncUpstreams?: Record<string, number>;
  /** proxy_read_timeout in seconds (default 60); SSE heartbeats (20 s) must keep streams within it. */
  readTimeoutSeconds?: number;
}

export interface Nginx {
  origin: string;
  port: number;
  configPath: string;
  errorLogPath: string;
  accessLogPath: string;
  errorLog(): string;
  accessLog(): string;
  /** Access log lines: one per request nginx answered (after it wrote them; see `flushed`). */
  accessEntries(): AccessEntry[];
  stop(): Promise<void>;
}

export interface AccessEntry {
  /** When nginx finished the request (ms since the epoch). */
  at: number;
  method: string;
  path: string;
  status: number;
  /** The instances nginx tried, in order ("127.0.0.1:1234"), none when it answered itself. */
  upstreams: string[];
  upstreamStatuses: string[];
}

/** The response header naming the instance (or instances) that answered, from `$upstream_addr`. */
export const UPSTREAM_HEADER = 'x-skyport-upstream';

/**
 * The reverse proxy as a production deployment would configure it in front of several instances,
 * plus two test-only locations that pin a request to one instance (`/__pin/<name>/api/...` →
 * that instance's `/api/...`) and a response header naming the instance that answered.
 *
 * - HTTP/1.1 with keep-alive to the instances (`Connection ""` clears the client's header).
 * - Security: `X-Forwarded-For $remote_addr` REPLACES whatever the client sent, so the instances
 *   (TRUST_PROXY=true: they read the rightmost entry) always see the real client address.
 * - `proxy_buffering off`: Server-Sent Events pass through as they are written (the server also
 *   sends `X-Accel-Buffering: no`).
 * - `proxy_next_upstream error timeout http_502 http_503`: a request that could not reach an
 *   instance goes to the other. nginx never resends a POST it already sent (the
 *   `non_idempotent` flag is deliberately absent): a checkout is retried by its client with the
 *   same Idempotency-Key instead.
 */
export function nginxConfig(options: NginxOptions): string {
  const { dir, port, upstreams, syncUpstreams } = options;
  const readTimeout = options.readTimeoutSeconds ?? 60;
  const serverLines = (ports: Record<string, number>) =>
    Object.values(ports)
      .map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`)
      .join('\n');
  const servers = serverLines(upstreams);
  const syncUpstream = syncUpstreams
    ? `\n  upstream skyport_sync {\n${serverLines(syncUpstreams)}\n    keepalive 16;\n  }`
    : '';
  const syncLocation = syncUpstreams
    ? `\n    location /api/sync/ {\n      proxy_pass http://skyport_sync;\n    }`
    : '';
  const pinned = Object.entries({ ...upstreams, ...syncUpstreams })
    .map(
      ([name, p]) => `  upstream pin_${name} {\n    server 127.0.0.1:${p};\n    keepalive 8;\n  }`,
    )
    .join('\n');
  const pinnedLocations = Object.keys({ ...upstreams, ...syncUpstreams })
    .map((name) => `    location /__pin/${name}/ {\n      proxy_pass http://pin_${name}/;\n    }`)
    .join('\n');
  const file = (name: string) => path.join(dir, name);
  return `# Written by sync-server/src/cluster/nginx.ts for one cluster test run.
worker_processes 1;
pid ${file('nginx.pid')};
error_log ${file('error.log')} info;

events {
  worker_connections 1024;
}

http {
  log_format cluster '$msec $request_method $request_uri $status upstream=$upstream_addr upstream_status=$upstream_status rt=$request_time';
  access_log ${file('access.log')} cluster;
  client_body_temp_path ${file('temp/body')};
  proxy_temp_path ${file('temp/proxy')};
  fastcgi_temp_path ${file('temp/fastcgi')};
  uwsgi_temp_path ${file('temp/uwsgi')};
  scgi_temp_path ${file('temp/scgi')};

  upstream skyport {
${servers}
    keepalive 16;
  }${syncUpstream}
${pinned}

  server {
    listen 127.0.0.1:${port};
    server_name _;

    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_buffering off;
    proxy_connect_timeout 2s;
    proxy_read_timeout ${readTimeout}s;
    proxy_next_upstream error timeout http_502 http_503;
    # Test only: which instance answered.
    add_header X-Skyport-Upstream $upstream_addr always;

    location / {
      proxy_pass http://skyport;
    }${syncLocation}
${pinnedLocations}
  }
}
`;
}

/** Writes the config into `dir` and runs `nginx -c <conf> -p <dir> -g 'daemon off;'` as a child. */
export async function startNginx(options: NginxOptions): Promise<Nginx> {
  const bin = findNginx();
  const { dir, port } = options;
  // As root, nginx's workers run as `nobody`; they must reach the temp folders in here.
  await chmod(dir, 0o755);
  await mkdir(path.join(dir, 'temp'), { recursive: true });
  const configPath = path.join(dir, 'nginx.conf');
  const errorLogPath = path.join(dir, 'error.log');
  const accessLogPath = path.join(dir, 'access.log');
  await writeFile(configPath, nginxConfig(options));

  let output = '';
  const child: ChildProcess = spawn(
    bin,
    ['-e', errorLogPath, '-c', configPath, '-p', dir, '-g', 'daemon off;'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  children.add(child);
  exited.then(() => children.delete(child));

  const readLog = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `nginx did not start on 127.0.0.1:${port}:\n${output}\n${readLog(errorLogPath)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    configPath,
    errorLogPath,
    accessLogPath,
    errorLog: () => output + readLog(errorLogPath),
    accessLog: () => readLog(accessLogPath),
    accessEntries: () => parseAccessLog(readLog(accessLogPath)),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

function parseAccessLog(text: string): AccessEntry[] {
  const entries: AccessEntry[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\d+\.\d+) (\S+) (\S+) (\d+) upstream=(.*) upstream_status=(.*) rt=\S+$/.exec(
      line,
    );
    if (!match) continue;
    const list = (value: string) =>
      value
        .split(/\s*[,:]\s+/)
        .map((part) => part.trim())
        .filter((part) => part && part !== '-');
    entries.push({
      at: Math.round(Number(match[1]) * 1000),
      method: match[2]!,
      path: match[3]!,
      status: Number(match[4]),
      // "$upstream_addr" lists tries as "a, b" (and "a : b" across internal redirects).
      upstreams: list(match[5]!),
      upstreamStatuses: list(match[6]!),
    });
  }
  return entries;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Every nginx still running is killed if the test process exits without stopping it. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
