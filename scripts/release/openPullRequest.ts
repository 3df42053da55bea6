import { ReleaseError, fetchBytes } from "./latestVersion.ts";

/** Where the repository's pull requests are listed (GitHub's REST API; the Actions variables). */
export interface GitHubTarget {
  /** `GITHUB_API_URL`, e.g. https://api.github.com */
  api: string;
  /** `GITHUB_REPOSITORY`: `owner/name`. */
  repository: string;
  /** `GITHUB_TOKEN`; public repositories answer without one. */
  token?: string | undefined;
}

/** The URL of the open pull request from `branch`, or null when there is none. */
export async function openPullRequest(target: GitHubTarget, branch: string): Promise<string | null> {
  const [owner] = target.repository.split("/");
  if (!owner || !/^[\w.-]+\/[\w.-]+$/.test(target.repository))
    throw new ReleaseError(`GITHUB_REPOSITORY must be owner/name, got ${JSON.stringify(target.repository)}`);
  const url = `${target.api}/repos/${target.repository}/pulls?state=open&head=${encodeURIComponent(`${owner}:${branch}`)}`;
  const headers: Record<string, string> = { accept: "application/vnd.github+json" };
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  const body = new TextDecoder().decode(await fetchBytes(url, { headers }));
  let pulls: unknown;
  try {
    pulls = JSON.parse(body);
  } catch {
    throw new ReleaseError(`${url}: the answer is not JSON`);
  }
  if (!Array.isArray(pulls)) throw new ReleaseError(`${url}: expected a list of pull requests`);
  const first = pulls[0] as { html_url?: string; number?: number } | undefined;
  return first ? (first.html_url ?? `#${first.number}`) : null;
}
