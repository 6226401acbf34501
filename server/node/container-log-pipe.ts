/**
 * A container's stdout and stderr as CRI log records (server/kube/cri-log.ts) in
 * `<pod dir>/<container>.log`; when the container restarts, the last run's file becomes
 * `<container>.previous.log` (what `kubectl logs --previous` reads; kube keeps one dead instance). The container writes into two FIFOs in the pod dir; the kubelet reads
 * them and appends the records. The container's own ends are opened read-write, so it never gets
 * SIGPIPE while no kubelet reads (a kubelet restart): its writes wait in the pipe (64 KiB, then
 * they block) until the next kubelet re-attaches (reattachContainerLog) and carries on.
 */
import { closeSync, constants, existsSync, openSync, renameSync, writeSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { encodeCriChunk, type CriStream } from '../kube/cri-log';
import { fifoPoolFor } from './fifo-pool';

const STREAMS: CriStream[] = ['stdout', 'stderr'];

/**
 * per log file: the reader of each stream. One per FIFO across container restarts: a reader that has
 * not seen EOF by the time the next container holds the pipe open never will, and carries on.
 */
const readers = new Map<string, Map<CriStream, net.Socket>>();
/** per log file: the descriptor its readers append to (reopened when the file is rotated) */
const sinks = new Map<string, { fd: number; users: number }>();

export function containerLogFile(dir: string, container: string): string {
  return join(dir, `${container}.log`);
}

/** the log of the container's previous run (kept while the Pod is) */
export function previousContainerLogFile(dir: string, container: string): string {
  return join(dir, `${container}.previous.log`);
}

/**
 * A container is about to start again: its log so far becomes the previous run's, and the readers
 * (which outlive the run) append to a fresh file from now on.
 */
export function rotateContainerLog(dir: string, container: string): void {
  const file = containerLogFile(dir, container);
  if (!existsSync(file)) return;
  renameSync(file, previousContainerLogFile(dir, container));
  const sink = sinks.get(file);
  if (!sink) return;
  closeSync(sink.fd);
  sink.fd = openSync(file, 'a');
}

function openSink(logFile: string): { fd: number; users: number } {
  const sink = sinks.get(logFile) ?? { fd: openSync(logFile, 'a'), users: 0 };
  sink.users++;
  sinks.set(logFile, sink);
  return sink;
}

function closeSink(logFile: string, sink: { fd: number; users: number }): void {
  if (--sink.users > 0) return;
  closeSync(sink.fd);
  if (sinks.get(logFile) === sink) sinks.delete(logFile);
}

function fifoPath(dir: string, container: string, stream: CriStream): string {
  return join(dir, `.${container}.${stream}.fifo`);
}

function readInto(logFile: string, fifo: string, stream: CriStream, mine: Map<CriStream, net.Socket>): void {
  // O_NONBLOCK: opening the read end waits for no writer; a read sees EOF once every writer is gone
  const fd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const sock = new net.Socket({ fd, readable: true, writable: false });
  sock.unref(); // a reader never keeps the kubelet's process alive
  mine.set(stream, sock);
  // held open: a Pod dir removed meanwhile takes the records with it, never an error here
  const out = openSink(logFile);
  sock.on('data', (chunk: Buffer) => {
    try {
      writeSync(out.fd, encodeCriChunk(chunk, stream));
    } catch {
      // a full disk loses log lines, as a kubelet's would; the container runs on
    }
  });
  sock.on('end', () => sock.destroy());
  sock.on('error', () => sock.destroy());
  sock.once('close', () => {
    closeSink(logFile, out);
    if (mine.get(stream) === sock) mine.delete(stream);
    if (!mine.size && readers.get(logFile) === mine) readers.delete(logFile);
  });
}

function attach(dir: string, container: string): void {
  const logFile = containerLogFile(dir, container);
  const mine = readers.get(logFile) ?? new Map<CriStream, net.Socket>();
  readers.set(logFile, mine);
  for (const stream of STREAMS) {
    const fifo = fifoPath(dir, container, stream);
    const current = mine.get(stream);
    if (current && !current.readableEnded && !current.destroyed) continue;
    if (existsSync(fifo)) readInto(logFile, fifo, stream, mine);
  }
  if (!mine.size) readers.delete(logFile);
}

/**
 * The file descriptors to give a starting container as stdout and stderr (the caller closes them
 * once it has spawned); the kubelet reads what comes through them into the container's log.
 */
export function openContainerLog(dir: string, container: string): { stdout: number; stderr: number } {
  const fds: number[] = [];
  try {
    for (const stream of STREAMS) {
      const fifo = fifoPath(dir, container, stream);
      if (!existsSync(fifo)) fifoPoolFor(dirname(dir)).take(fifo);
      // read-write: the pipe always has a reader, so the container's writes never fail with EPIPE
      fds.push(openSync(fifo, constants.O_RDWR));
    }
    attach(dir, container);
    return { stdout: fds[0], stderr: fds[1] };
  } catch (err) {
    for (const fd of fds) closeSync(fd);
    throw err;
  }
}

/** After a kubelet restart: read a running container's output again (nothing for plain-format pods). */
export function reattachContainerLog(dir: string, container: string): void {
  if (container) attach(dir, container);
}
