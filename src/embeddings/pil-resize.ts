/**
 * Pillow's `Image.resize` for 8-bit RGB pixels, in plain JavaScript: the separable convolution of
 * Pillow's Resample.c (filter support widened by the scale when shrinking, so downscaling is antialiased),
 * coefficients in 22-bit fixed point, the horizontal pass rounded to 8 bits before the vertical one. timm and
 * torchvision preprocess with it; sharp's resamplers differ enough (no antialiasing in its affine bicubic) to
 * move a model's input by a tenth of the pixel range on a detailed photo.
 */

/** Pillow's resampling filters, by the names timm's pretrained_cfg uses. */
export type PilFilter = "nearest" | "box" | "bilinear" | "hamming" | "bicubic" | "lanczos";

interface Kernel {
  support: number;
  weight: (x: number) => number;
}

const sinc = (x: number) => (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x));

const KERNELS: Readonly<Record<Exclude<PilFilter, "nearest">, Kernel>> = {
  box: { support: 0.5, weight: (x) => (x > -0.5 && x <= 0.5 ? 1 : 0) },
  bilinear: { support: 1, weight: (x) => Math.max(0, 1 - Math.abs(x)) },
  hamming: {
    support: 1,
    weight: (x) => {
      const t = Math.abs(x);
      if (t === 0) return 1;
      if (t >= 1) return 0;
      // Pillow writes these two constants as C floats (0.54f, 0.46f).
      return (Math.sin(Math.PI * t) / (Math.PI * t)) * (Math.fround(0.54) + Math.fround(0.46) * Math.cos(Math.PI * t));
    },
  },
  bicubic: {
    support: 2,
    weight: (x) => {
      const a = -0.5;
      const t = Math.abs(x);
      if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
      if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
      return 0;
    },
  },
  lanczos: { support: 3, weight: (x) => (Math.abs(x) < 3 ? sinc(x) * sinc(x / 3) : 0) },
};

const PRECISION_BITS = 32 - 8 - 2;
const ONE = 2 ** PRECISION_BITS;

/** For each output index: the first input index and its fixed-point weights (Pillow's precompute_coeffs). */
function coefficients(inSize: number, outSize: number, kernel: Kernel): Array<{ first: number; weights: number[] }> {
  const scale = inSize / outSize;
  const filterScale = Math.max(scale, 1);
  const support = kernel.support * filterScale;
  return Array.from({ length: outSize }, (_, out) => {
    const center = (out + 0.5) * scale;
    const first = Math.max(Math.trunc(center - support + 0.5), 0);
    const last = Math.min(Math.trunc(center + support + 0.5), inSize);
    const raw = Array.from({ length: last - first }, (_, i) => kernel.weight((i + first - center + 0.5) / filterScale));
    const total = raw.reduce((sum, w) => sum + w, 0);
    // Rounded half away from zero, as Pillow's (int)(w * ONE +- 0.5).
    const weights = raw.map((w) => Math.trunc((total === 0 ? w : w / total) * ONE + (w < 0 ? -0.5 : 0.5)));
    return { first, weights };
  });
}

/** The source index of each output index, accumulated in floating point as Pillow's ImagingScaleAffine does. */
function nearestSources(inSize: number, outSize: number): number[] {
  const step = inSize / outSize;
  const sources: number[] = [];
  for (let out = 0, at = step * 0.5; out < outSize; out++, at += step) sources.push(Math.min(Math.trunc(at), inSize - 1));
  return sources;
}

const clip8 = (value: number) => Math.min(255, Math.max(0, Math.floor(value / ONE)));

/**
 * Resizes packed RGB pixels (`width * height * 3` bytes) to `outWidth x outHeight`, as Pillow does for an RGB
 * image: nearest picks the source pixel under each output pixel's centre, the other filters convolve.
 */
export function pilResize(pixels: ArrayLike<number>, width: number, height: number, outWidth: number, outHeight: number, filter: PilFilter): Uint8ClampedArray {
  if (filter === "nearest") {
    const xs = nearestSources(width, outWidth);
    const ys = nearestSources(height, outHeight);
    const out = new Uint8ClampedArray(outWidth * outHeight * 3);
    for (let y = 0; y < outHeight; y++) {
      for (let x = 0; x < outWidth; x++) {
        for (let c = 0; c < 3; c++) out[(y * outWidth + x) * 3 + c] = pixels[(ys[y] * width + xs[x]) * 3 + c];
      }
    }
    return out;
  }
  const kernel = KERNELS[filter];
  let current: ArrayLike<number> = pixels;
  let currentWidth = width;
  if (outWidth !== width) {
    const next = new Uint8ClampedArray(outWidth * height * 3);
    const columns = coefficients(width, outWidth, kernel);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < outWidth; x++) {
        const { first, weights } = columns[x];
        for (let c = 0; c < 3; c++) {
          let sum = ONE / 2;
          for (let i = 0; i < weights.length; i++) sum += current[(y * currentWidth + first + i) * 3 + c] * weights[i];
          next[(y * outWidth + x) * 3 + c] = clip8(sum);
        }
      }
    }
    current = next;
    currentWidth = outWidth;
  }
  if (outHeight === height) return Uint8ClampedArray.from(current);
  const next = new Uint8ClampedArray(outWidth * outHeight * 3);
  const rows = coefficients(height, outHeight, kernel);
  for (let y = 0; y < outHeight; y++) {
    const { first, weights } = rows[y];
    for (let x = 0; x < outWidth; x++) {
      for (let c = 0; c < 3; c++) {
        let sum = ONE / 2;
        for (let i = 0; i < weights.length; i++) sum += current[((first + i) * currentWidth + x) * 3 + c] * weights[i];
        next[(y * outWidth + x) * 3 + c] = clip8(sum);
      }
    }
  }
  return next;
}
