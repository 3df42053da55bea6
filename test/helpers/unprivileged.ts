/**
 * Commands for tests of what the service does with a file or folder it may not write. Root may
 * write anything, so such a test must not run the command as root with its full powers; nor as
 * another user (nobody), who may not even enter the checkout (one under /root, mode 0700). As
 * root, the command runs as root without the two capabilities that bypass file permissions
 * (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), through util-linux's `setpriv`: it reads the checkout
 * as its owner, and a file's or folder's mode binds it as it binds any user.
 */
import { spawnSync } from "node:child_process";

/** Whether this process runs as root. */
export const AS_ROOT = process.getuid?.() === 0;

/** `command` with `args`, bound by file permissions even when this process is root. */
export function unprivileged(command: string, args: readonly string[]): { command: string; args: string[] } {
  if (!AS_ROOT) return { command, args: [...args] };
  if (spawnSync("setpriv", ["--version"]).error)
    throw new Error("tests run as root need setpriv (util-linux) to drop the capabilities that bypass file permissions");
  return { command: "setpriv", args: ["--bounding-set=-dac_override,-dac_read_search", "--", command, ...args] };
}
