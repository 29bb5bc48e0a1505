/**
 * Errors of the ML runtime. They carry what a caller needs to decide (which model, why) without
 * parsing messages; features map them to their own answers (a task without its model is
 * "unavailable", a model that throws on an input fails that one job).
 */

/** The model cannot be run: not installed, still downloading, refused (wrong size or hash), or not in the registry. */
export class ModelUnavailableError extends Error {
  override readonly name = 'ModelUnavailableError';
  constructor(
    readonly modelId: string,
    readonly reason: 'unknown_model' | 'not_installed' | 'downloading' | 'failed' | 'not_onnx',
    readonly detail: string | null = null,
  ) {
    super(`model ${modelId} is unavailable (${reason})${detail ? `: ${detail}` : ''}`);
  }
}

/** The model was loaded (or loading was tried) and onnxruntime refused the input or failed. */
export class InferenceError extends Error {
  override readonly name = 'InferenceError';
  constructor(
    readonly modelId: string,
    /** `load`: creating the session failed; `run`: the session threw on this input; `worker`: the thread stopped. */
    readonly phase: 'load' | 'run' | 'worker',
    detail: string,
  ) {
    super(`${modelId}: ${phase === 'load' ? 'loading the model failed' : phase === 'run' ? 'inference failed' : 'the inference worker stopped'}: ${detail}`);
  }
}

/** The pool is shutting down (or shut): it takes no new work. */
export class PoolClosedError extends Error {
  override readonly name = 'PoolClosedError';
  constructor() {
    super('the inference pool is shutting down and takes no new work');
  }
}
