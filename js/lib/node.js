// twinrt-web for Node.js.
import { createApi } from './api.js';
import { platform } from './node-platform.js';

export const { InferenceSession, Tensor, env, TwinrtError, Pipeline } = createApi(platform);
export { outputStrings } from './pipeline.js';
