/**
 * Where the embedded database's bridge listens. On Linux and macOS: a Unix socket in a folder
 * only this account may open (0700), beside the database, so no other user of the machine can
 * even connect, token or not. Node on Windows has no Unix sockets (a socket path names a pipe
 * there), so the bridge stays on a loopback TCP port, and the token alone keeps other local
 * users out.
 */
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface BridgeSocket {
  path: string;
  /** Removes the socket (and a folder made for it alone). */
  remove(): void;
}

/** The longest socket path every platform takes: sun_path holds 108 bytes on Linux, 104 on macOS, with the NUL. */
const maxSocketPathBytes = 100;

/** A folder this account owns and nobody else may enter. */
function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = lstatSync(dir);
  if (!info.isDirectory() || (process.getuid && info.uid !== process.getuid())) {
    throw new Error(`${dir} must be a folder owned by the account that runs the site`);
  }
  if ((info.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/**
 * A socket path for the process that now hosts `dataDir`, or null where only TCP works. Only
 * the host (the holder of the host file) calls this, so sockets already in the folder were left
 * by hosts that died, and are removed.
 */
export function privateBridgeSocket(dataDir: string): BridgeSocket | null {
  if (process.platform === 'win32') return null;
  const name = `${process.pid}.sock`;
  const beside = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.bridge`);
  if (Buffer.byteLength(path.join(beside, name)) <= maxSocketPathBytes) {
    privateFolder(beside);
    for (const entry of readdirSync(beside))
      if (entry.endsWith('.sock')) rmSync(path.join(beside, entry), { force: true });
    const file = path.join(beside, name);
    return { path: file, remove: () => rmSync(file, { force: true }) };
  }
  // DATA_DIR is too deep for a socket path: a private folder of its own in the temp folder (mkdtemp makes it 0700).
  const own = mkdtempSync(path.join(tmpdir(), 'catalogue-bridge-'));
  const file = path.join(own, name);
  if (Buffer.byteLength(file) > maxSocketPathBytes) {
    rmSync(own, { recursive: true, force: true });
    throw new Error(
      `no socket path short enough for the bridge: ${file} is over ${maxSocketPathBytes} bytes; set TMPDIR to a shorter folder`,
    );
  }
  return { path: file, remove: () => rmSync(own, { recursive: true, force: true }) };
}
