/**
 * A minimal ONNX writer: the protobuf wire format of the few ONNX messages a small graph needs
 * (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto, ValueInfoProto), so the test
 * stand-in models are made in TypeScript with no Python and no protobuf package. Field numbers are
 * those of onnx/onnx.proto; tensors are stored as little-endian `raw_data`.
 *
 * The output is a pure function of the input (fields in a fixed order, no time stamps), so a
 * generated model has the same bytes, and the same sha256, every time and on every machine.
 */

type Elem = 'float32' | 'int64';
const DATA_TYPE: Record<Elem, number> = { float32: 1, int64: 7 };

/** One protobuf message being written: fields appended in call order. */
class Message {
  private readonly parts: Buffer[] = [];

  private static varint(value: bigint): Buffer {
    // Negative int64 values are written as their 64-bit two's complement (10 bytes), as protobuf does.
    let v = value < 0n ? value + (1n << 64n) : value;
    const bytes: number[] = [];
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v) b |= 0x80;
      bytes.push(b);
    } while (v);
    return Buffer.from(bytes);
  }

  private key(field: number, wire: number): void {
    this.parts.push(Message.varint(BigInt((field << 3) | wire)));
  }

  int(field: number, value: number | bigint): this {
    this.key(field, 0);
    this.parts.push(Message.varint(BigInt(value)));
    return this;
  }

  float(field: number, value: number): this {
    this.key(field, 5);
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.parts.push(b);
    return this;
  }

  bytes(field: number, value: Buffer | Uint8Array): this {
    this.key(field, 2);
    this.parts.push(Message.varint(BigInt(value.length)), Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  message(field: number, value: Message): this {
    return this.bytes(field, value.toBuffer());
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export interface TensorValue {
  name: string;
  type: Elem;
  dims: number[];
  data: Float32Array | BigInt64Array;
}

/** TensorProto: dims (1), data_type (2), name (8), raw_data (9). */
function tensorProto(t: TensorValue): Message {
  const count = t.dims.reduce((n, d) => n * d, 1);
  if (t.data.length !== count) throw new Error(`tensor ${t.name}: ${t.data.length} values for dims [${t.dims}]`);
  const m = new Message();
  for (const d of t.dims) m.int(1, d);
  m.int(2, DATA_TYPE[t.type]);
  if (t.name) m.string(8, t.name);
  // raw_data is little-endian; so are the typed arrays of every platform Node runs on that we target.
  m.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  return m;
}

export type Attribute =
  | { name: string; int: number }
  | { name: string; ints: number[] }
  | { name: string; float: number }
  | { name: string; tensor: TensorValue };

/** AttributeProto: name (1), f (2), i (3), t (5), ints (8), type (20: FLOAT 1, INT 2, TENSOR 4, INTS 7). */
function attributeProto(a: Attribute): Message {
  const m = new Message().string(1, a.name);
  if ('int' in a) m.int(3, a.int).int(20, 2);
  else if ('ints' in a) {
    for (const v of a.ints) m.int(8, v);
    m.int(20, 7);
  } else if ('float' in a) m.float(2, a.float).int(20, 1);
  else m.message(5, tensorProto(a.tensor)).int(20, 4);
  return m;
}

export interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  name?: string;
  attributes?: Attribute[];
}

/** NodeProto: input (1), output (2), name (3), op_type (4), attribute (5). */
function nodeProto(n: Node): Message {
  const m = new Message();
  for (const i of n.inputs) m.string(1, i);
  for (const o of n.outputs) m.string(2, o);
  m.string(3, n.name ?? n.outputs[0]!);
  m.string(4, n.op);
  for (const a of n.attributes ?? []) m.message(5, attributeProto(a));
  return m;
}

export interface ValueInfo {
  name: string;
  type: Elem;
  /** Numbers are fixed sizes, strings name a dynamic dimension. */
  shape: (number | string)[];
}

/** ValueInfoProto: name (1), type (2) → TypeProto.tensor_type (1) → elem_type (1), shape (2) → dim (1) → dim_value (1) | dim_param (2). */
function valueInfoProto(v: ValueInfo): Message {
  const shape = new Message();
  for (const d of v.shape) shape.message(1, typeof d === 'number' ? new Message().int(1, d) : new Message().string(2, d));
  const tensorType = new Message().int(1, DATA_TYPE[v.type]).message(2, shape);
  return new Message().string(1, v.name).message(2, new Message().message(1, tensorType));
}

export interface Graph {
  name: string;
  nodes: Node[];
  initializers: TensorValue[];
  inputs: ValueInfo[];
  outputs: ValueInfo[];
  doc?: string;
}

export interface ModelOptions {
  opset: number;
  producer: string;
  producerVersion: string;
  doc?: string;
}

/**
 * ModelProto: ir_version (1), producer_name (2), producer_version (3), doc_string (6), graph (7),
 * opset_import (8: domain (1) "" = ai.onnx, version (2)). GraphProto: node (1), name (2),
 * initializer (5), doc_string (10), input (11), output (12).
 */
export function encodeModel(graph: Graph, opts: ModelOptions): Buffer {
  const g = new Message();
  for (const n of graph.nodes) g.message(1, nodeProto(n));
  g.string(2, graph.name);
  for (const t of graph.initializers) g.message(5, tensorProto(t));
  if (graph.doc) g.string(10, graph.doc);
  for (const i of graph.inputs) g.message(11, valueInfoProto(i));
  for (const o of graph.outputs) g.message(12, valueInfoProto(o));
  const m = new Message()
    // IR version 8 (ONNX 1.10+): what opset 17 needs, and what onnxruntime 1.x reads.
    .int(1, 8)
    .string(2, opts.producer)
    .string(3, opts.producerVersion);
  if (opts.doc) m.string(6, opts.doc);
  m.message(7, g).message(8, new Message().string(1, '').int(2, opts.opset));
  return m.toBuffer();
}
