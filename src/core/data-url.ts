/** A `data:` URL's media type and bytes (base64 or percent-encoded), or undefined when the text is not one. */
export function decodeDataUrl(text: string): { mimeType?: string; bytes: Buffer } | undefined {
  const data = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,(.*)$/s.exec(text);
  if (!data) return undefined;
  const [, type, , base64, payload] = data;
  return { ...(type ? { mimeType: type } : {}), bytes: base64 ? Buffer.from(payload, "base64") : Buffer.from(decodeURIComponent(payload), "latin1") };
}
