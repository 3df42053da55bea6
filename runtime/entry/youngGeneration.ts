/**
 * The Node server's young generation. V8 grows it (two semi-spaces) as the allocation rate rises,
 * up to 32 MB on 64-bit, and keeps it once grown: under load a large share of the server's memory
 * goes to garbage that lives a request long. The server holds it at the size loading the data
 * gave it (8 MB) by turning its growth off, which V8 reads each time it would grow it. An operator
 * who starts Node with `--max-semi-space-size` (on the command line or in NODE_OPTIONS) has chosen
 * a size: the server then leaves it alone (see RESULTS.md, "Node's memory after load").
 */
import { setFlagsFromString } from "node:v8";
import { type NodeStart, optionGiven, thisStart } from "./nodeStart.ts";

/** Whether Node was started with a young generation size of its operator's choosing. */
export function sizeChosen(start: NodeStart): boolean {
  return optionGiven(start, "max-semi-space-size");
}

/** Holds the young generation at its present size unless the operator chose one; says whether it did. */
export function holdYoungGeneration(start: NodeStart = thisStart()): boolean {
  if (sizeChosen(start)) return false;
  setFlagsFromString("--semi-space-growth-factor=1");
  return true;
}
