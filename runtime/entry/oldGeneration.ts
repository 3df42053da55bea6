/**
 * The Node server's old generation. After each full collection V8 lets the old generation grow to
 * a multiple of what survived before collecting again: a factor it picks between about 1.1 and 4
 * from how fast it collects. Under load, short-lived request garbage that outlives two scavenges
 * (answers in flight on 50 connections) fills that room, and the pages stay with the process: a
 * good part of its RSS after load, and most of that figure's swing from run to run. The server
 * sets the factor to 1.2 (V8's `--heap-growing-percent`, read at each collection), so it collects
 * sooner, keeping RSS after load under its budget for a few more full collections (see RESULTS.md,
 * "Node's memory after load"). An operator who starts Node with `--heap-growing-percent` (Node
 * allows it on the command line only) keeps their own.
 */
import { setFlagsFromString } from "node:v8";
import { type NodeStart, optionGiven, thisStart } from "./nodeStart.ts";

/** The factor as V8's flag gives it: the old generation may grow by this percentage of what survived a collection. */
export const HEAP_GROWING_PERCENT = 20;

/** Whether Node was started with a heap growing factor of its operator's choosing. */
export function growthChosen(start: NodeStart): boolean {
  return optionGiven(start, "heap-growing-percent");
}

/** Keeps the old generation near what survives its collections unless the operator chose a factor; says whether it did. */
export function keepOldGenerationNearLive(start: NodeStart = thisStart()): boolean {
  if (growthChosen(start)) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
