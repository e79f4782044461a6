/**
 * PP-OCRv4's line recognizer graph (as paddle2onnx wrote it, opset 9) rewritten into the same function with fewer,
 * larger operations, before onnxruntime loads it (lineRecognizerWorker.ts). Why: its backbone (PP-LCNetV3) follows
 * every convolution with a learnable affine (Mul, Add by scalars), a hard-swish spelled out in four operations
 * (Add 3, Clip 0–6, Mul, Div 6) and another affine: eight passes over each feature map, in the plain NCHW layout, each
 * with a layout change on either side of the convolution (onnxruntime's fused NCHWc convolutions cannot take them in,
 * as the scalars come first in the Mul and the hard-swish has no operator at opset 9). Measured on receipt lines
 * (docs/benchmarks.md, "The second reader's cost"): those element-wise operations and layout changes were half of the
 * recognizer's time.
 *
 * The rewrites, each exact in real arithmetic (float32 rounds differently: on 450 receipt lines the probabilities moved
 * by at most 3·10⁻⁴ and no frame's best class changed):
 * - Conv → Mul(s) → Add(b), s and b scalars: the convolution's weights × s, its bias × s + b.
 * - Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(·, 6) (hard-swish): Mul(x, HardSigmoid(x; α = 1/6, β = ½)).
 * - Mul(s) → Add(b) → a 1×1 Conv without padding: the convolution's weights × s, its bias + b × the sum of each
 *   output channel's weights. (Not before a padded convolution: its zero padding would no longer be b.)
 * Anything else, or any pattern whose values are not plain float constants, stays as it is; a graph without the
 * patterns comes back unchanged.
 */
import protobuf from 'protobufjs';

/**
 * onnx.proto (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto), every field of the messages a model of this
 * kind holds, so that decoding and encoding again loses nothing the runtime reads.
 */
const ONNX_PROTO = `
syntax = "proto2";
package onnx;
message AttributeProto {
  optional string name = 1; optional string ref_attr_name = 21; optional string doc_string = 13; optional int32 type = 20;
  optional float f = 2; optional int64 i = 3; optional bytes s = 4; optional TensorProto t = 5; optional GraphProto g = 6;
  optional SparseTensorProto sparse_tensor = 22; optional TypeProto tp = 14;
  repeated float floats = 7; repeated int64 ints = 8; repeated bytes strings = 9; repeated TensorProto tensors = 10;
  repeated GraphProto graphs = 11; repeated SparseTensorProto sparse_tensors = 23; repeated TypeProto type_protos = 15;
}
message ValueInfoProto { optional string name = 1; optional TypeProto type = 2; optional string doc_string = 3; repeated StringStringEntryProto metadata_props = 4; }
message NodeProto {
  repeated string input = 1; repeated string output = 2; optional string name = 3; optional string op_type = 4;
  optional string domain = 7; optional string overload = 8; repeated AttributeProto attribute = 5; optional string doc_string = 6;
  repeated StringStringEntryProto metadata_props = 9;
}
message ModelProto {
  optional int64 ir_version = 1; repeated OperatorSetIdProto opset_import = 8; optional string producer_name = 2;
  optional string producer_version = 3; optional string domain = 4; optional int64 model_version = 5; optional string doc_string = 6;
  optional GraphProto graph = 7; repeated StringStringEntryProto metadata_props = 14; repeated FunctionProto functions = 25;
}
message StringStringEntryProto { optional string key = 1; optional string value = 2; }
message TensorAnnotation { optional string tensor_name = 1; repeated StringStringEntryProto quant_parameter_tensor_names = 2; }
message GraphProto {
  repeated NodeProto node = 1; optional string name = 2; repeated TensorProto initializer = 5; repeated SparseTensorProto sparse_initializer = 15;
  optional string doc_string = 10; repeated ValueInfoProto input = 11; repeated ValueInfoProto output = 12; repeated ValueInfoProto value_info = 13;
  repeated TensorAnnotation quantization_annotation = 14; repeated StringStringEntryProto metadata_props = 16;
}
message TensorProto {
  message Segment { optional int64 begin = 1; optional int64 end = 2; }
  repeated int64 dims = 1; optional int32 data_type = 2; optional Segment segment = 3;
  repeated float float_data = 4 [packed = true]; repeated int32 int32_data = 5 [packed = true]; repeated bytes string_data = 6;
  repeated int64 int64_data = 7 [packed = true]; optional string name = 8; optional string doc_string = 12; optional bytes raw_data = 9;
  repeated StringStringEntryProto external_data = 13; optional int32 data_location = 14; repeated double double_data = 10 [packed = true];
  repeated uint64 uint64_data = 11 [packed = true]; repeated StringStringEntryProto metadata_props = 16;
}
message SparseTensorProto { optional TensorProto values = 1; optional TensorProto indices = 2; repeated int64 dims = 3; }
message TensorShapeProto {
  message Dimension { optional int64 dim_value = 1; optional string dim_param = 2; optional string denotation = 3; }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor { optional int32 elem_type = 1; optional TensorShapeProto shape = 2; }
  message Sequence { optional TypeProto elem_type = 1; }
  message Map { optional int32 key_type = 1; optional TypeProto value_type = 2; }
  message Optional { optional TypeProto elem_type = 1; }
  message SparseTensor { optional int32 elem_type = 1; optional TensorShapeProto shape = 2; }
  optional Tensor tensor_type = 1; optional Sequence sequence_type = 4; optional Map map_type = 5; optional Optional optional_type = 9;
  optional SparseTensor sparse_tensor_type = 8; optional string denotation = 6;
}
message OperatorSetIdProto { optional string domain = 1; optional int64 version = 2; }
message FunctionProto {
  optional string name = 1; repeated string input = 4; repeated string output = 5; repeated string attribute = 6;
  repeated AttributeProto attribute_proto = 11; repeated NodeProto node = 7; optional string doc_string = 8;
  repeated OperatorSetIdProto opset_import = 9; optional string domain = 10; optional string overload = 13;
  repeated ValueInfoProto value_info = 12; repeated StringStringEntryProto metadata_props = 14;
}
`;

const root = protobuf.parse(ONNX_PROTO, { keepCase: true }).root;
const ModelProto = root.lookupType('onnx.ModelProto');

interface Tensor {
  dims?: Array<number | protobuf.Long>;
  data_type?: number;
  name?: string;
  raw_data?: Uint8Array;
  float_data?: number[];
}
interface Attribute {
  name?: string;
  type?: number;
  f?: number;
  i?: number | protobuf.Long;
  ints?: Array<number | protobuf.Long>;
  t?: Tensor;
}
interface Node {
  input: string[];
  output: string[];
  name?: string;
  op_type?: string;
  domain?: string;
  attribute: Attribute[];
}
interface Graph {
  node: Node[];
  initializer: Tensor[];
  output: Array<{ name?: string }>;
}

const FLOAT = 1;
const ATTRIBUTE_FLOAT = 1;

/** What `simplifyLineModel` changed: patterns rewritten, by kind. */
export interface LineModelRewrites {
  convAffine: number;
  hardSwish: number;
  affineIntoPointwise: number;
}

/** The model's bytes with the rewrites above, and how many of each were made. */
export function simplifyLineModel(bytes: Uint8Array): { model: Uint8Array; rewrites: LineModelRewrites } {
  const model = ModelProto.decode(bytes) as unknown as { graph?: Graph };
  const graph = model.graph;
  const rewrites: LineModelRewrites = { convAffine: 0, hardSwish: 0, affineIntoPointwise: 0 };
  if (!graph) return { model: bytes, rewrites };
  const rewriter = new GraphRewriter(graph);
  rewrites.convAffine = rewriter.foldConvAffines();
  rewrites.hardSwish = rewriter.fuseHardSwishes();
  rewrites.affineIntoPointwise = rewriter.foldAffinesIntoPointwise();
  if (rewrites.convAffine + rewrites.hardSwish + rewrites.affineIntoPointwise === 0) return { model: bytes, rewrites };
  rewriter.dropUnusedConstants();
  return { model: ModelProto.encode(model as unknown as protobuf.Message).finish(), rewrites };
}

class GraphRewriter {
  private readonly constants = new Map<string, Tensor>();
  private fresh = 0;

  constructor(private readonly graph: Graph) {
    // protobufjs leaves an absent repeated field as a shared frozen empty array.
    graph.initializer = [...graph.initializer];
    for (const t of graph.initializer) if (t.name) this.constants.set(t.name, t);
    for (const node of graph.node) {
      const value = node.op_type === 'Constant' && node.attribute.length === 1 && node.attribute[0]!.name === 'value' ? node.attribute[0]!.t : undefined;
      if (value) this.constants.set(node.output[0]!, value);
    }
  }

  /** Conv → Mul(s) → Add(b): the convolution's weights × s, its bias × s + b. */
  foldConvAffines(): number {
    let count = 0;
    for (const conv of this.graph.node.filter((n) => n.op_type === 'Conv' && isPlainDomain(n))) {
      const weights = this.floats(conv.input[1]);
      const bias = conv.input[2] ? this.floats(conv.input[2]) : null;
      if (!weights || (conv.input[2] && !bias)) continue;
      const mul = this.soleConsumer(conv.output[0]!, 'Mul');
      const scale = mul ? this.scalarBeside(mul, conv.output[0]!) : null;
      const add = mul && scale !== null ? this.soleConsumer(mul.output[0]!, 'Add') : null;
      const shift = add ? this.scalarBeside(add, mul!.output[0]!) : null;
      if (!mul || scale === null || !add || shift === null) continue;
      const channels = Number(weights.dims[0]);
      const newBias = new Float32Array(channels);
      for (let o = 0; o < channels; o++) newBias[o] = (bias ? bias.values[o]! : 0) * scale + shift;
      conv.input = [conv.input[0]!, this.addInitializer(weights.values.map((v) => v * scale), weights.dims), this.addInitializer(newBias, [channels])];
      conv.output = [add.output[0]!];
      this.remove(mul, add);
      count++;
    }
    return count;
  }

  /** Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(·, 6): Mul(x, HardSigmoid(x; 1/6, ½)). */
  fuseHardSwishes(): number {
    let count = 0;
    for (const add of this.graph.node.filter((n) => n.op_type === 'Add' && isPlainDomain(n))) {
      const x = add.input.find((name) => this.scalar(name) === null);
      if (x === undefined || this.scalarBeside(add, x) !== 3) continue;
      const clip = this.soleConsumer(add.output[0]!, 'Clip');
      if (!clip || this.clipBound(clip, 'min') !== 0 || this.clipBound(clip, 'max') !== 6) continue;
      const mul = this.soleConsumer(clip.output[0]!, 'Mul');
      if (!mul || mul.input.length !== 2 || !mul.input.includes(x) || !mul.input.includes(clip.output[0]!)) continue;
      const div = this.soleConsumer(mul.output[0]!, 'Div');
      if (!div || div.input[0] !== mul.output[0] || this.scalar(div.input[1]) !== 6) continue;
      const gate = this.freshName('hard_sigmoid');
      const hardSigmoid: Node = {
        input: [x],
        output: [gate],
        name: gate,
        op_type: 'HardSigmoid',
        attribute: [
          { name: 'alpha', type: ATTRIBUTE_FLOAT, f: 1 / 6 },
          { name: 'beta', type: ATTRIBUTE_FLOAT, f: 0.5 },
        ],
      };
      const product: Node = { input: [x, gate], output: [div.output[0]!], name: `${gate}_mul`, op_type: 'Mul', attribute: [] };
      const at = this.graph.node.indexOf(add);
      this.remove(add, clip, mul, div);
      this.graph.node.splice(at, 0, hardSigmoid, product);
      count++;
    }
    return count;
  }

  /** Mul(s) → Add(b) → a 1×1 Conv without padding: weights × s, bias + b × each output channel's sum of weights. */
  foldAffinesIntoPointwise(): number {
    let count = 0;
    for (const mul of this.graph.node.filter((n) => n.op_type === 'Mul' && isPlainDomain(n))) {
      const x = mul.input.find((name) => this.scalar(name) === null);
      const scale = x === undefined ? null : this.scalarBeside(mul, x);
      const add = scale !== null ? this.soleConsumer(mul.output[0]!, 'Add') : null;
      const shift = add ? this.scalarBeside(add, mul.output[0]!) : null;
      const conv = add && shift !== null ? this.soleConsumer(add.output[0]!, 'Conv') : null;
      if (x === undefined || scale === null || !add || shift === null || !conv || conv.input[0] !== add.output[0]) continue;
      const weights = this.floats(conv.input[1]);
      const bias = conv.input[2] ? this.floats(conv.input[2]) : null;
      if (!weights || (conv.input[2] && !bias) || !isPointwise(conv, weights.dims)) continue;
      const channels = Number(weights.dims[0]);
      const perChannel = weights.values.length / channels;
      const newBias = new Float32Array(channels);
      for (let o = 0; o < channels; o++) {
        let sum = 0;
        for (let k = 0; k < perChannel; k++) sum += weights.values[o * perChannel + k]!;
        newBias[o] = (bias ? bias.values[o]! : 0) + shift * sum;
      }
      conv.input = [x, this.addInitializer(weights.values.map((v) => v * scale), weights.dims), this.addInitializer(newBias, [channels])];
      this.remove(mul, add);
      count++;
    }
    return count;
  }

  /** A Clip's bound: its attribute (opset < 11) or its input (opset ≥ 11); null where absent or not a constant. */
  private clipBound(clip: Node, bound: 'min' | 'max'): number | null {
    const input = clip.input[bound === 'min' ? 1 : 2];
    if (input) return this.scalar(input);
    const attribute = clip.attribute.find((a) => a.name === bound);
    return attribute && clip.input.length === 1 ? (attribute.f ?? 0) : null;
  }

  /** Constants and initializers whose value nothing reads any more (the weights replaced by folded ones). */
  dropUnusedConstants(): void {
    const used = new Set(this.graph.node.flatMap((n) => n.input));
    for (const output of this.graph.output) if (output.name) used.add(output.name);
    this.graph.node = this.graph.node.filter((n) => n.op_type !== 'Constant' || n.output.some((o) => used.has(o)));
    this.graph.initializer = this.graph.initializer.filter((t) => !t.name?.startsWith('line_model_') || used.has(t.name));
  }

  private remove(...nodes: Node[]): void {
    const gone = new Set(nodes);
    this.graph.node = this.graph.node.filter((n) => !gone.has(n));
  }

  /** The one node reading `name`, where it is of type `op` and `name` is no graph output; else null. */
  private soleConsumer(name: string, op: string): Node | null {
    if (this.graph.output.some((o) => o.name === name)) return null;
    const readers = this.graph.node.filter((n) => n.input.includes(name));
    return readers.length === 1 && readers[0]!.op_type === op && isPlainDomain(readers[0]!) ? readers[0]! : null;
  }

  /** Of a two-input node, the scalar constant beside the input `other`; null where there is none. */
  private scalarBeside(node: Node, other: string): number | null {
    if (node.input.length !== 2) return null;
    const [a, b] = node.input as [string, string];
    if (a === other && b !== other) return this.scalar(b);
    if (b === other && a !== other) return this.scalar(a);
    return null;
  }

  /** A float constant of one element and rank 0 or 1 (so it broadcasts without changing the other's shape), else null. */
  private scalar(name: string | undefined): number | null {
    const tensor = this.floats(name);
    return tensor && tensor.values.length === 1 && tensor.dims.length <= 1 ? tensor.values[0]! : null;
  }

  private floats(name: string | undefined): { values: Float32Array; dims: number[] } | null {
    const tensor = name ? this.constants.get(name) : undefined;
    if (!tensor || tensor.data_type !== FLOAT) return null;
    const dims = (tensor.dims ?? []).map(toNumber);
    const size = dims.reduce((a, b) => a * b, 1);
    let values: Float32Array;
    if (tensor.raw_data && tensor.raw_data.length) {
      if (tensor.raw_data.length !== 4 * size) return null;
      const view = new DataView(tensor.raw_data.buffer, tensor.raw_data.byteOffset, tensor.raw_data.byteLength);
      values = new Float32Array(size);
      for (let i = 0; i < size; i++) values[i] = view.getFloat32(4 * i, true);
    } else if (tensor.float_data && tensor.float_data.length === size) values = Float32Array.from(tensor.float_data);
    else return null;
    return { values, dims };
  }

  private addInitializer(values: Float32Array, dims: number[]): string {
    const name = this.freshName('folded');
    const raw = new Uint8Array(values.length * 4);
    const view = new DataView(raw.buffer);
    values.forEach((v, i) => view.setFloat32(4 * i, v, true));
    const tensor: Tensor = { name, dims, data_type: FLOAT, raw_data: raw };
    this.graph.initializer.push(tensor);
    this.constants.set(name, tensor);
    return name;
  }

  private freshName(kind: string): string {
    return `line_model_${kind}_${this.fresh++}`;
  }
}

const toNumber = (value: number | protobuf.Long): number => (typeof value === 'number' ? value : protobuf.util.LongBits.from(value).toNumber());

const isPlainDomain = (node: Node): boolean => !node.domain || node.domain === 'ai.onnx';


/** A 1×1 convolution without padding (its weights' kernel 1×1; strides and groups do not matter then). */
function isPointwise(conv: Node, weightDims: readonly number[]): boolean {
  const pads = conv.attribute.find((a) => a.name === 'pads')?.ints?.map(toNumber) ?? [];
  const autoPad = conv.attribute.find((a) => a.name === 'auto_pad');
  return weightDims.length > 2 && weightDims.slice(2).every((k) => k === 1) && pads.every((p) => p === 0) && !autoPad;
}
