/**
 * Which Unicode version is the latest published: the UCD's `latest` folder always holds the final
 * data of the current release (never a beta or draft, which are published under `draft/`), and
 * its ReadMe.txt names the version ("This directory contains the final data files for Version
 * 17.0.0 of the Unicode Standard."). Other folders are never looked at.
 */

/** A failure of the release job that names what it fetched and what was wrong. */
export class ReleaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReleaseError";
  }
}

/** GET `url` as bytes, failing with a ReleaseError that names the URL. */
export async function fetchBytes(url: string, init: RequestInit = {}, timeoutMs = 60_000): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new ReleaseError(`cannot fetch ${url}: ${cause}`);
  }
  if (!response.ok) throw new ReleaseError(`cannot fetch ${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The version named by the `UCD/latest/ReadMe.txt` under `publicBase` (the Unicode `Public/` folder). */
export async function latestVersion(publicBase: string): Promise<string> {
  const url = `${publicBase}/UCD/latest/ReadMe.txt`;
  const text = new TextDecoder().decode(await fetchBytes(url));
  const match = /final data files\s+(?:for the Unicode Character Database,\s+)?for Version\s+(\d+\.\d+\.\d+)\s+of the Unicode Standard/i.exec(text);
  if (!match?.[1])
    throw new ReleaseError(
      `${url}: no "final data files … for Version X.Y.Z of the Unicode Standard" line; the layout changed, or this is not the latest release's ReadMe`,
    );
  return match[1];
}

/** Compares dotted versions numerically (`18.0.0` > `17.10.0` > `17.9.0`). */
export function compareVersions(a: string, b: string): number {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}
