/** Object keys shared by every object store: new keys are `<random uuid><extension>`, and a key is one plain name. */
import { randomUUID } from "node:crypto";
import { ValidationError } from "../../core/errors.js";

/** Keys are single names: letters, digits, dot, dash, underscore; never "." or "..". */
const KEY_PATTERN = /^[A-Za-z0-9._-]+$/;
const EXTENSION_PATTERN = /^\.?[A-Za-z0-9]{1,16}$/;

/** A new key keeping the extension ("png" or ".png"); `store` names the store in errors. */
export function newObjectKey(store: string, extension = ""): string {
  if (extension !== "" && !EXTENSION_PATTERN.test(extension)) {
    throw new ValidationError(`${store}: extension must be 1-16 letters or digits, got "${extension}"`);
  }
  return `${randomUUID()}${extension === "" || extension.startsWith(".") ? extension : `.${extension}`}`;
}

/** The key itself, or a ValidationError for one that could name something outside the store (a path, ".."). */
export function checkObjectKey(store: string, key: string): string {
  if (typeof key !== "string" || !KEY_PATTERN.test(key) || key === "." || key === "..") {
    throw new ValidationError(`${store}: invalid key "${String(key)}"`);
  }
  return key;
}
