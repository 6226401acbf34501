/**
 * UDP datagrams over a byte stream (the launcher's port-forward socket): each datagram is a 2-byte
 * big-endian length and its bytes, so a forwarded UDP port keeps datagram boundaries end to end
 * (virtctl's UDP socket ⇄ one WebSocket message per datagram ⇄ this framing ⇄ the guest's port).
 */
/** the largest UDP payload over IPv4 */
export const MAX_DATAGRAM = 65_507;

export function frameDatagram(payload: Buffer): Buffer {
  if (payload.length > MAX_DATAGRAM) throw new RangeError(`datagram of ${payload.length} bytes is larger than ${MAX_DATAGRAM}`);
  const head = Buffer.alloc(2);
  head.writeUInt16BE(payload.length);
  return Buffer.concat([head, payload]);
}

/** Collects stream chunks and hands out whole datagrams as they complete. */
export class DatagramDeframer {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly onDatagram: (payload: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    while (this.pending.length >= 2) {
      const size = this.pending.readUInt16BE(0);
      if (this.pending.length < 2 + size) return;
      this.onDatagram(this.pending.subarray(2, 2 + size));
      this.pending = this.pending.subarray(2 + size);
    }
  }
}
