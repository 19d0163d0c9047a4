import { readFile } from "node:fs/promises";
import { EmbeddingError, ValidationError } from "../core/errors.js";
import type { RawImageLike } from "./image-types.js";
import { pilResize, type PilFilter } from "./pil-resize.js";

/** timm's evaluation preprocessing, as `resolve_data_config(model.pretrained_cfg)` gives it. */
export interface TimmDataConfig {
  /** [channels, height, width]; channels is 3. */
  inputSize: readonly [3, number, number];
  interpolation: TimmInterpolation;
  /** The crop's share of the resized image: the shorter side is resized to size / cropPct, then centre-cropped. */
  cropPct: number;
  /** "center": resize the shorter side, keep the aspect ratio; "squash": resize both sides to size / cropPct. */
  cropMode: "center" | "squash";
  mean: readonly [number, number, number];
  std: readonly [number, number, number];
  /** The classifier's classes (0: exported without a head). */
  numClasses: number;
  /** The features' width (config.json `num_features`), which tells a channels-last feature map from channels-first. */
  numFeatures?: number;
  /** How the model pools tokens (config.json `global_pool`): "token" (the class token) or "avg" (the mean of the others). */
  globalPool?: string;
}

/** The resampling filters timm names (Pillow's; timm's training-only "random" is not one). */
export type TimmInterpolation = PilFilter;

const INTERPOLATIONS: readonly TimmInterpolation[] = ["bicubic", "bilinear", "nearest", "lanczos", "box", "hamming"];
// timm's defaults (timm.data.constants) for keys a pretrained_cfg leaves out.
const IMAGENET_MEAN = [0.485, 0.456, 0.406] as const;
const IMAGENET_STD = [0.229, 0.224, 0.225] as const;
const DEFAULT_CROP_PCT = 0.875;

interface TimmConfigJson {
  num_classes?: number;
  num_features?: unknown;
  global_pool?: unknown;
  pretrained_cfg?: {
    input_size?: unknown;
    interpolation?: unknown;
    crop_pct?: unknown;
    crop_mode?: unknown;
    mean?: unknown;
    std?: unknown;
    num_classes?: unknown;
  };
}

const isTriple = (value: unknown): value is [number, number, number] =>
  Array.isArray(value) && value.length === 3 && value.every((x) => typeof x === "number" && Number.isFinite(x));

/** Reads a timm hub config.json (`pretrained_cfg`), refusing what would preprocess differently from timm. */
export async function readTimmConfig(path: string, feature: string): Promise<TimmDataConfig> {
  let json: TimmConfigJson;
  try {
    json = JSON.parse(await readFile(path, "utf8")) as TimmConfigJson;
  } catch (error) {
    throw new EmbeddingError(`${feature}: cannot read the model's config ${path}: ${(error as Error).message}`, { cause: error });
  }
  const cfg = json?.pretrained_cfg;
  const bad = (message: string) => new ValidationError(`${feature}: ${path}: ${message}`);
  if (typeof cfg !== "object" || cfg === null) throw bad("no pretrained_cfg (timm writes one into config.json with push_to_hf_hub / save_pretrained).");
  const size = cfg.input_size ?? [3, 224, 224];
  if (!isTriple(size) || size[0] !== 3 || !size.every((x) => Number.isInteger(x) && x > 0)) throw bad(`pretrained_cfg.input_size must be [3, height, width], got ${JSON.stringify(size)}.`);
  const interpolation = cfg.interpolation ?? "bicubic";
  if (!INTERPOLATIONS.includes(interpolation as TimmInterpolation)) throw bad(`pretrained_cfg.interpolation ${JSON.stringify(interpolation)} is not supported (${INTERPOLATIONS.join(", ")}).`);
  const cropPct = cfg.crop_pct ?? DEFAULT_CROP_PCT;
  if (typeof cropPct !== "number" || !(cropPct > 0 && cropPct <= 1)) throw bad(`pretrained_cfg.crop_pct must be in (0, 1], got ${JSON.stringify(cropPct)}.`);
  const cropMode = cfg.crop_mode ?? "center";
  if (cropMode !== "center" && cropMode !== "squash") throw bad(`pretrained_cfg.crop_mode ${JSON.stringify(cropMode)} is not supported (center, squash).`);
  if (cropMode === "center" && size[1] !== size[2]) throw bad('a non-square input_size is supported with crop_mode "squash" only.');
  const mean = cfg.mean ?? IMAGENET_MEAN;
  const std = cfg.std ?? IMAGENET_STD;
  if (!isTriple(mean) || !isTriple(std) || std.some((x) => x <= 0)) throw bad("pretrained_cfg.mean and std must be three numbers each (std > 0).");
  const numClasses = cfg.num_classes ?? json.num_classes ?? 0;
  const numFeatures = json.num_features;
  if (numFeatures !== undefined && !(Number.isInteger(numFeatures) && (numFeatures as number) > 0)) throw bad(`num_features must be a positive integer, got ${JSON.stringify(numFeatures)}.`);
  const globalPool = json.global_pool;
  if (globalPool !== undefined && globalPool !== "" && globalPool !== "token" && globalPool !== "avg") {
    throw bad(`global_pool ${JSON.stringify(globalPool)} is not supported here ("token", "avg"): export the model pooled (num_classes=0, its forward) instead.`);
  }
  return {
    inputSize: [3, size[1], size[2]], interpolation: interpolation as TimmInterpolation, cropPct, cropMode, mean, std, numClasses: Number(numClasses) || 0,
    ...(numFeatures === undefined ? {} : { numFeatures: numFeatures as number }),
    ...(globalPool === undefined || globalPool === "" ? {} : { globalPool: globalPool as string }),
  };
}

const roundHalfEven = (value: number) => (value % 1 === 0.5 ? 2 * Math.round(value / 2) : Math.round(value));

/**
 * timm's eval transform (`create_transform(**resolve_data_config(...))`): resize to input size / crop_pct
 * (the shorter side, or both with "squash") with Pillow's resampling, crop the centre, scale to [0, 1],
 * normalise by mean and std. Returns the image as [3, height, width] floats.
 */
export function timmPixels(image: RawImageLike, cfg: TimmDataConfig): Float32Array {
  const [, height, width] = cfg.inputSize;
  const scaledH = Math.floor(height / cfg.cropPct);
  const scaledW = Math.floor(width / cfg.cropPct);
  let resizedW = scaledW;
  let resizedH = scaledH;
  if (cfg.cropMode === "center") {
    // torchvision's Resize(int): the shorter side to the size, the longer one in proportion (truncated).
    const short = Math.min(image.width, image.height);
    resizedW = image.width === short ? scaledW : Math.trunc((scaledW * image.width) / short);
    resizedH = image.height === short ? scaledH : Math.trunc((scaledH * image.height) / short);
  }
  const resized = pilResize(rgbPixels(image), image.width, image.height, resizedW, resizedH, cfg.interpolation);
  // torchvision's CenterCrop rounds the offsets as Python does, half to even (58.5 -> 58).
  const left = roundHalfEven((resizedW - width) / 2);
  const top = roundHalfEven((resizedH - height) / 2);
  const pixels = new Float32Array(3 * height * width);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) {
        const value = resized[((top + y) * resizedW + left + x) * 3 + c] / 255;
        pixels[c * height * width + y * width + x] = (value - cfg.mean[c]) / cfg.std[c];
      }
    }
  }
  return pixels;
}

/** Packed RGB bytes of a decoded image: grey repeated, alpha dropped (as Pillow's convert("RGB") does). */
function rgbPixels(image: RawImageLike): ArrayLike<number> {
  const { data, channels } = image;
  if (channels === 3) return data;
  if (channels !== 1 && channels !== 2 && channels !== 4) throw new ValidationError(`An image of ${channels} channels cannot be read as RGB.`);
  const pixels = image.width * image.height;
  const rgb = new Uint8ClampedArray(pixels * 3);
  for (let i = 0; i < pixels; i++) {
    for (let c = 0; c < 3; c++) rgb[i * 3 + c] = channels < 3 ? data[i * channels] : data[i * channels + c];
  }
  return rgb;
}
