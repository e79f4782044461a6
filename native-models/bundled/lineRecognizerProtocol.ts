/** Messages between the line recognizer (lineRecognizer.ts) and its worker thread (lineRecognizerWorker.ts). */

export interface LineWorkerInit {
  /** The ONNX model's bytes (read on the main side, which can read from an asar archive). */
  model: Uint8Array;
  /** Load the graph as shipped, not rewritten by lineModelGraph.ts (to compare the two; the engine never does). */
  asShipped?: boolean;
}

export interface LineWorkerRequest {
  id: number;
  /** 1 × 3 × height × width, RGB, each value (x / 255 − 0.5) / 0.5. */
  pixels: Float32Array;
  width: number;
  height: number;
}

export type LineWorkerReply =
  | { type: 'ready' }
  | { type: 'open-failed'; message: string }
  | { type: 'done'; id: number; classes: Int32Array; probabilities: Float32Array }
  | { type: 'failed'; id: number; message: string };
