/**
 * Follows the client → server half of an RFB (VNC) session byte by byte, keeping what a fresh
 * server connection would need to serve this client the same way: its last SetPixelFormat and
 * SetEncodings. Used when the console proxy moves a session to the guest's new node after a live
 * migration (the new QEMU starts a new RFB session; the browser must not notice).
 */

/** Client handshake bytes for RFB 3.8 with security type None: version (12), security type (1), ClientInit (1). */
const HANDSHAKE_BYTES = 14;

const MessageType = {
  SetPixelFormat: 0,
  SetEncodings: 2,
  FramebufferUpdateRequest: 3,
  KeyEvent: 4,
  PointerEvent: 5,
  ClientCutText: 6,
  EnableContinuousUpdates: 150,
  ClientFence: 248,
  SetDesktopSize: 251,
  Qemu: 255,
} as const;

/** Length of the message at the start of `b`, 0 if more bytes are needed, -1 if the type is unknown. */
function messageLength(b: Buffer): number {
  const need = (n: number) => (b.length >= n ? n : 0);
  switch (b[0]) {
    case MessageType.SetPixelFormat: return need(20);
    case MessageType.SetEncodings: return b.length < 4 ? 0 : need(4 + 4 * b.readUInt16BE(2));
    case MessageType.FramebufferUpdateRequest: return need(10);
    case MessageType.KeyEvent: return need(8);
    case MessageType.PointerEvent: return need(6);
    case MessageType.ClientCutText: return b.length < 8 ? 0 : need(8 + b.readUInt32BE(4));
    case MessageType.EnableContinuousUpdates: return need(10);
    case MessageType.ClientFence: return b.length < 9 ? 0 : need(9 + b[8]);
    case MessageType.SetDesktopSize: return b.length < 8 ? 0 : need(8 + 16 * b[6]);
    case MessageType.Qemu: return qemuMessageLength(b);
    default: return -1;
  }
}

/** QEMU's client messages: extended key event (12 bytes), audio (4 bytes, or 10 for set-format). */
function qemuMessageLength(b: Buffer): number {
  if (b.length < 2) return 0;
  if (b[1] === 0) return b.length >= 12 ? 12 : 0;
  if (b[1] === 1) {
    if (b.length < 4) return 0;
    const len = b.readUInt16BE(2) === 2 ? 10 : 4;
    return b.length >= len ? len : 0;
  }
  return -1;
}

export class RfbClientTracker {
  private handshakeLeft = HANDSHAKE_BYTES;
  private buf = Buffer.alloc(0);
  private lost = false;
  pixelFormat?: Buffer;
  encodings?: Buffer;

  /** Feeds bytes the client sent to the server. */
  take(chunk: Buffer): void {
    if (this.lost) return;
    let b = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    if (this.handshakeLeft > 0) {
      const n = Math.min(this.handshakeLeft, b.length);
      this.handshakeLeft -= n;
      b = b.subarray(n);
    }
    while (b.length) {
      const len = messageLength(b);
      if (len < 0) { this.lost = true; return; }
      if (len === 0) break;
      const msg = Buffer.from(b.subarray(0, len));
      if (msg[0] === MessageType.SetPixelFormat) this.pixelFormat = msg;
      if (msg[0] === MessageType.SetEncodings) this.encodings = msg;
      b = b.subarray(len);
    }
    this.buf = Buffer.from(b);
  }

  /** True between whole messages: bytes sent to a new server from here on start a message. */
  get atBoundary(): boolean {
    return !this.lost && this.handshakeLeft === 0 && this.buf.length === 0;
  }

  /** The messages to send a new server after its handshake, in the order the client sent them. */
  replay(): Buffer[] {
    return [this.pixelFormat, this.encodings].filter((m): m is Buffer => !!m);
  }
}
