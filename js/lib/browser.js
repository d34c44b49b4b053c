// twinrt-web for browsers and Web Workers.
import { createApi } from './api.js';
import { platform } from './browser-platform.js';

export const { InferenceSession, Tensor, env, TwinrtError, Pipeline } = createApi(platform);
export { outputStrings } from './pipeline.js';
