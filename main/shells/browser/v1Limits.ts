/**
 * What a `/v1` request may cost, checked before the work it would cause: the body's size and the bytes all waiting
 * requests hold (from Content-Length, before a byte is buffered), the page image's sides and aspect (the import's
 * limits, app/model/pageLimits.ts, from the image header before decoding), and the prompt's length (tied to the
 * model's positions). A 1 × 100,000,000 px PNG of 259 KB held the engine 138 s; a 4 M-character prompt 13 s; 24
 * concurrent 48 MB uploads took the server to 2.4 GB before the 429 check.
 */
import type http from 'node:http';
import { DEFAULT_MAX_PIXELS, MAX_PAGE_SIDE_PX, pageShapeProblem } from '../../../app/model/pageLimits.js';

/** A page image as base64 (~4/3 of its bytes): pages render to a few MB; 48 MB leaves room for 600-dpi scans. */
export const MAX_BODY_BYTES = 48 * 1024 * 1024;
/** Bytes all admitted requests may hold at once (bodies being read and waiting for the engine). */
export const MAX_HELD_BYTES = 256 * 1024 * 1024;
/** Requests admitted (reading, waiting or being read) before new ones are told to come back later. */
export const MAX_WAITING = 64;
/** What a 429 asks the client to wait, in seconds. */
export const RETRY_AFTER_S = 2;
/**
 * Characters per prompt position: no tokenizer of these models packs more than a few characters into a token on
 * prompt text, so a prompt of more than positions × this many characters cannot fit and is refused untokenized. The
 * engine checks the exact count (text tokens + image tokens) before it runs the model.
 */
export const MAX_PROMPT_CHARS_PER_POSITION = 4;

export type Admission = { ok: true; release: () => void } | { ok: false; status: 413 | 429 | 411; code: string; message: string };

/** Admits requests by count and by the bytes their bodies will hold; every admitted request must release. */
export class V1Admission {
  private admitted = 0;
  private heldBytes = 0;

  admit(request: http.IncomingMessage): Admission {
    const declared = request.headers['content-length'];
    // Without a length (chunked), the request is charged the maximum: it may send that much.
    const length = declared === undefined ? MAX_BODY_BYTES : Number(declared);
    if (!Number.isSafeInteger(length) || length < 0) return { ok: false, status: 411, code: 'length_required', message: 'Content-Length is not a byte count' };
    if (length > MAX_BODY_BYTES) return { ok: false, status: 413, code: 'request_too_large', message: `Request body over ${MAX_BODY_BYTES / 1024 / 1024} MB` };
    if (this.admitted >= MAX_WAITING || this.heldBytes + length > MAX_HELD_BYTES) {
      return { ok: false, status: 429, code: 'rate_limited', message: `${this.admitted} requests are waiting; try again shortly` };
    }
    this.admitted += 1;
    this.heldBytes += length;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.admitted -= 1;
        this.heldBytes -= length;
      },
    };
  }
}

/** Why a page image of this size is refused (the import's side, pixel and aspect limits), or null. */
export function imageSizeProblem(width: number, height: number): string | null {
  const shape = pageShapeProblem(width, height, 'px');
  if (shape) return `the image: ${shape}`;
  if (Math.max(width, height) > MAX_PAGE_SIDE_PX) return `the image is ${width} × ${height} px; sides over ${MAX_PAGE_SIDE_PX.toLocaleString('en')} px are refused`;
  if (width * height > DEFAULT_MAX_PIXELS) return `the image is ${width} × ${height} px, over ${DEFAULT_MAX_PIXELS.toLocaleString('en')} pixels`;
  return null;
}

/** Why a prompt is refused for its length (before tokenizing), or null. */
export function promptLengthProblem(prompt: string, maxPositions: number): string | null {
  const limit = maxPositions * MAX_PROMPT_CHARS_PER_POSITION;
  return prompt.length > limit ? `the prompt has ${prompt.length.toLocaleString('en')} characters; this model's ${maxPositions.toLocaleString('en')} positions hold at most ${limit.toLocaleString('en')}` : null;
}

/** An engine error's message fit for a client: no file system paths (onnxruntime names its source files). */
export function plainEngineMessage(message: string): string {
  const firstLine = message.split('\n', 1)[0]!.slice(0, 500);
  // A word with two or more path separators (`/home/x/onnxruntime/core/session.cc:123`, `C:\\a\\b`) is a path.
  return firstLine
    .split(' ')
    .map((word) => ((word.match(/[\\/]/g) ?? []).length >= 2 ? '<path>' : word))
    .join(' ');
}

/**
 * The body, at most `limit` bytes: 'too-large' once it passes (the socket is then closed, nothing more is read),
 * 'aborted' when the client hangs up or the stream fails before the end (logged as one line by the caller).
 */
export function readBoundedBody(request: http.IncomingMessage, limit: number): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: Buffer | 'too-large' | 'aborted'): void => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        settle('too-large');
        request.pause();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => settle(Buffer.concat(chunks)));
    request.on('aborted', () => settle('aborted'));
    request.on('close', () => settle(request.complete ? Buffer.concat(chunks) : 'aborted'));
    request.on('error', () => settle('aborted'));
  });
}
