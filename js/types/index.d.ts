// Types of twinrt-web: the onnxruntime-web API shape (InferenceSession, Tensor, env) plus
// twinrt's own session option `mode` and `session.runtime`.

/** A WebGPU GPUBuffer (named structurally: these types do not need the WebGPU type library). */
export interface GpuBufferLike { readonly size: number; destroy(): void }

export declare namespace Tensor {
  interface DataTypeMap {
    float32: Float32Array; float64: Float64Array; float16: Uint16Array; bfloat16: Uint16Array;
    int8: Int8Array; int16: Int16Array; int32: Int32Array; int64: BigInt64Array;
    uint8: Uint8Array; uint16: Uint16Array; uint32: Uint32Array; uint64: BigUint64Array;
    bool: Uint8Array; string: string[];
  }
  type Type = keyof DataTypeMap;
  type DataType = DataTypeMap[Type];
}

export declare class Tensor<T extends Tensor.Type = Tensor.Type> {
  constructor(type: T, data: Tensor.DataTypeMap[T] | readonly number[] | readonly bigint[] | readonly boolean[] | readonly string[], dims?: readonly number[]);
  constructor(data: Tensor.DataType | Uint8ClampedArray | readonly string[] | readonly boolean[], dims?: readonly number[]);
  readonly type: T;
  readonly data: Tensor.DataTypeMap[T];
  readonly dims: readonly number[];
  readonly size: number;
  /** 'gpu-buffer': the data is in `gpuBuffer` (read it with getData()); 'none': disposed. */
  readonly location: 'cpu' | 'gpu-buffer' | 'none';
  readonly gpuBuffer?: GpuBufferLike;
  getData(): Promise<Tensor.DataTypeMap[T]>;
  dispose(): void;
  reshape(dims: readonly number[]): Tensor<T>;
  /** A float32 tensor in a GPUBuffer of env.webgpu.device (usage STORAGE | COPY_SRC), for a WebGPU session's feeds. */
  static fromGpuBuffer(buffer: GpuBufferLike, options: { dataType: 'float32'; dims: readonly number[]; download?: () => Promise<Float32Array>; dispose?: () => void }): Tensor<'float32'>;
}

/** What run() accepts and returns per name: a tensor; for sequence inputs/outputs an array of
 * tensors; for optional ones null when empty. */
export type OnnxValue = Tensor | Tensor[] | null;

export declare namespace InferenceSession {
  type ExecutionProviderConfig = 'webgpu' | 'wasm' | 'cpu' | { name: 'webgpu' | 'wasm' | 'cpu' };

  interface SessionOptions {
    executionProviders?: readonly ExecutionProviderConfig[];
    /** Threads for this session (bounded by env.wasm.numThreads). */
    intraOpNumThreads?: number;
    interOpNumThreads?: number;
    /** Values for symbolic dimensions, e.g. { batch: 1 }. */
    freeDimensionOverrides?: { readonly [dimensionName: string]: number };
    /**
     * twinrt: the largest tensor (bytes) the model or a feed may declare or make; larger
     * ones reject the Promise with INVALID_ARGUMENT. Default: half the WebAssembly heap's maximum.
     */
    maxTensorBytes?: number;
    /** twinrt: bytes for the weights, and for the values alive during a run. Default: the heap's maximum. */
    maxMemoryBytes?: number;
    /** Files the model's external-data initializers name (path relative to the model). */
    externalData?: ReadonlyArray<{ path: string; data: Uint8Array | ArrayBuffer | string }>;
    /** Accepted for compatibility; twinrt writes no log. */
    logSeverityLevel?: 0 | 1 | 2 | 3 | 4;
    /** Accepted for compatibility; twinrt always folds constants at load. */
    graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'layout' | 'all';
    /**
     * twinrt: 'exact' runs the fast kernels with one fixed operation order, bit-identical to
     * native twinrt's exact mode on every CPU and thread count; 'reference' accumulates in
     * float64 and is also bit-identical everywhere; 'default' is the fastest.
     */
    mode?: 'default' | 'exact' | 'reference';
    /** WebGPU sessions: float32 outputs as GPU tensors ('gpu-buffer'), for all outputs or by name. Sessions on wasm return CPU tensors. */
    preferredOutputLocation?: 'cpu' | 'gpu-buffer' | { readonly [outputName: string]: 'cpu' | 'gpu-buffer' };
  }

  interface RunOptions { logSeverityLevel?: 0 | 1 | 2 | 3 | 4; tag?: string }

  type FeedsType = { readonly [name: string]: OnnxValue };
  type FetchesType = readonly string[] | { readonly [name: string]: OnnxValue | null };
  type ReturnType = { readonly [name: string]: OnnxValue };

  interface TensorValueMetadata { readonly name: string; readonly isTensor: true; readonly type: Tensor.Type; readonly shape: ReadonlyArray<number | string> }
  interface NonTensorValueMetadata {
    readonly name: string; readonly isTensor: false;
    readonly kind: 'sequence' | 'optional' | 'map' | 'sparse_tensor' | 'unknown';
    readonly type: Tensor.Type | 'undefined'; readonly shape: ReadonlyArray<number | string>;
  }
  type ValueMetadata = TensorValueMetadata | NonTensorValueMetadata;

  /** twinrt's own: the build running the session. */
  interface RuntimeInfo {
    readonly variant: 'simd-threaded' | 'simd' | 'threaded' | 'baseline'; readonly simd: boolean; readonly threads: number;
    /** 'webgpu' when the session runs on the WebGPU executor (docs/webgpu.md), else 'wasm'. */
    readonly executionProvider: 'webgpu' | 'wasm';
    /** WebGPU sessions: the adapter's vendor and architecture. */
    readonly adapter?: string;
  }
  /** Where one node of the compiled plan ran in the last run. */
  interface NodePlacement { readonly node: string; readonly op: string; readonly ep: 'webgpu' | 'wasm' }
}

export declare class InferenceSession {
  static create(uriOrBuffer: string | URL | ArrayBufferLike | Uint8Array, options?: InferenceSession.SessionOptions): Promise<InferenceSession>;
  static create(buffer: ArrayBufferLike, byteOffset: number, byteLength?: number, options?: InferenceSession.SessionOptions): Promise<InferenceSession>;
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly inputMetadata: readonly InferenceSession.ValueMetadata[];
  readonly outputMetadata: readonly InferenceSession.ValueMetadata[];
  readonly runtime: InferenceSession.RuntimeInfo;
  /** WebGPU sessions: where each node ran in the last run; null for wasm sessions. */
  readonly placement: readonly InferenceSession.NodePlacement[] | null;
  run(feeds: InferenceSession.FeedsType, options?: InferenceSession.RunOptions): Promise<InferenceSession.ReturnType>;
  run(feeds: InferenceSession.FeedsType, fetches: InferenceSession.FetchesType, options?: InferenceSession.RunOptions): Promise<InferenceSession.ReturnType>;
  release(): Promise<void>;
  startProfiling(): void;
  endProfiling(): void;
}

export interface Env {
  wasm: {
    /** 0: half the hardware threads, at most 4. Threads need SharedArrayBuffer (Node, or a cross-origin isolated page). */
    numThreads?: number;
    simd?: boolean;
    /** URL prefix of the package's dist/ folder. */
    wasmPaths?: string;
    /** Run sessions in a Web Worker (browser) or worker_threads (Node). */
    proxy?: boolean;
  };
  /** twinrt-web's GPUDevice (null without an adapter). */
  readonly webgpu: { readonly device: Promise<object | null> };
  logLevel?: 'verbose' | 'info' | 'warning' | 'error' | 'fatal';
  readonly versions: { readonly web: string };
}
export declare const env: Env;

/** The error run() and create() reject with; message is twinrt's own. */
export declare class TwinrtError extends Error {
  readonly code: 'INVALID_MODEL' | 'INVALID_ARGUMENT' | 'NOT_IMPLEMENTED' | 'IO_ERROR' | 'OUT_OF_MEMORY' | 'INTERNAL' | 'UNAVAILABLE' | 'ABORTED';
}

/** One stage's timing in a pipeline run (docs/pipelines.md). */
export interface PipelineStageTiming {
  stage: string;
  /** The step name, or 'model'. */
  kind: string;
  /** Where it ran: 'webgpu' (a model stage on a WebGPU session) or 'wasm'. */
  provider: 'webgpu' | 'wasm';
  load_ms: number;
  run_ms: number;
  model_calls: number;
  /** true on the pipeline's first run. */
  cold: boolean;
}

/** A multi-model pipeline file run by the same C++ runner and glue steps as `twinrt pipeline run`. */
export declare class Pipeline {
  /** Which WebAssembly build runs the pipeline. */
  readonly runtime: { readonly variant: string; readonly simd: boolean; readonly executionProvider: 'webgpu' | 'wasm'; readonly adapter?: string };
  /**
   * The URL or path of a pipeline file; the models and dictionaries it names are read next to it.
   * executionProviders: ['wasm'] (default); ['webgpu', 'wasm']: model stages on WebGPU, on wasm without an adapter;
   * ['webgpu']: rejects without an adapter. stageProviders: the same, for single model stages by name.
   * WebGPU is refused with env.wasm.proxy.
   */
  static create(urlOrPath: string | URL, options?: {
    executionProviders?: ('webgpu' | 'wasm' | 'cpu')[];
    stageProviders?: Record<string, ('webgpu' | 'wasm' | 'cpu')[]>;
  }): Promise<Pipeline>;
  /** Inputs: tensors, a file's bytes (Uint8Array) or lists (Tensor[]). Rejects naming the stage and tensor that failed. */
  run(inputs: Record<string, Tensor | Uint8Array | Tensor[]>): Promise<{ outputs: Record<string, Tensor | Tensor[]>; timings: PipelineStageTiming[] }>;
  /** Forgets the state carried between runs (a pipeline file's "state"): the next run starts from zeros. */
  resetState(): Promise<void>;
  release(): Promise<void>;
}

/** The strings of a string tensor, or of a list of string tensors, in order. */
export declare function outputStrings(value: Tensor | Tensor[]): string[];
