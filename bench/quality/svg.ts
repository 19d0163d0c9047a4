/** The SVG plot lives with the `semcache tune` command, which writes one too. */
export { precisionRecallSvg, type Series } from "../../src/cli/precision-recall-svg.js";
