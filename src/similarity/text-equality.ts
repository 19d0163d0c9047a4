/** Whether two questions are the same text up to case and spacing (the same question, whatever its embedding). */
export function sameQuestionText(a: string, b: string): boolean {
  if (a === b) return true;
  const normal = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();
  return normal(a) === normal(b);
}
