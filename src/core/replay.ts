/**
 * Splits a cached answer into stream pieces of a few words each (whitespace kept, so joining them gives the
 * answer back exactly). Stream hits replay these in the surface's own chunk shape.
 */
export function splitIntoChunks(text: string, wordsPerChunk = 3): string[] {
  const words = text.match(/\s*\S+\s*/g);
  if (!words) return text ? [text] : [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) chunks.push(words.slice(i, i + wordsPerChunk).join(""));
  // Leading whitespace-only input has no \S match at the start: keep it so the join is exact.
  const joined = chunks.join("");
  if (joined.length < text.length) chunks[chunks.length - 1] += text.slice(joined.length);
  return chunks;
}
