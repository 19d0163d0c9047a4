/** Models hosted on Replicate through the cache: text-to-image and visual question answering. `langchain-semcache/replicate`. */
export { cachedReplicate, DEFAULT_REPLICATE_URL, type CachedReplicate, type CachedReplicateOptions, type ReplicateImageInput, type ReplicateVisualQuestionSetup } from "./cached-replicate.js";
export type { Prediction, PredictionStatus } from "./predictions.js";
export type { CachedImage, CachedImages, CachedVisualQuestion, ImageCallOptions, ImageInput, ImageResponseFormat, VisualAnswer } from "../images/index.js";
export { ModelServerError } from "../local-models/model-server.js";
