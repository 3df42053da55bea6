/**
 * The client IP a demo quota is counted against (docs/rules.md "Interface B"): the socket's peer, or the address
 * `trustProxyHops` entries from the right of `X-Forwarded-For`; IPv4-mapped IPv6 as IPv4; IPv6
 * grouped by its /64.
 */
import ipaddr from "ipaddr.js";
import { LRUCache } from "lru-cache";
import { ENTRY_BYTES, SHARED_LOOKUPS, stringBytes } from "../util/cacheBudget.ts";

export function clientIp(peer: string | undefined, forwardedFor: string | null, trustProxyHops: number): string {
  if (trustProxyHops > 0 && forwardedFor) {
    const hops = forwardedFor
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const entry = hops[Math.max(0, hops.length - trustProxyHops)];
    // An entry that is no address (`unknown`, garbage) is counted against the proxy itself.
    const key = entry === undefined ? null : addressKey(withoutPort(entry));
    if (key !== null) return key;
  }
  const address = peer ?? "unknown";
  return addressKey(address) ?? address;
}

/**
 * An `X-Forwarded-For` entry without the port some proxies add (`1.2.3.4:5678`,
 * `[2001:db8::1]:443`), so that each new source port is not a fresh quota.
 */
function withoutPort(entry: string): string {
  return /^\[([^\]]+)\](?::\d+)?$/.exec(entry)?.[1] ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry)?.[1] ?? entry;
}

// lru-cache keeps no null: what is no address is kept as this.
const NOT_AN_ADDRESS = 0;
// Normalised addresses (null: not an address), so a busy client is parsed once; bounded by what
// the entries cost (`SHARED_LOOKUPS.addresses`): an `X-Forwarded-For` entry may be long.
const keys = new LRUCache<string, string | typeof NOT_AN_ADDRESS>({
  maxSize: SHARED_LOOKUPS.addresses,
  // lru-cache passes the value first: the metering key (or NOT_AN_ADDRESS), then the address it was made from.
  sizeCalculation: (key, address) => ENTRY_BYTES + stringBytes(address) + (key === NOT_AN_ADDRESS ? 0 : stringBytes(key)),
});

/** The metering key of an address: `::ffff:1.2.3.4` → `1.2.3.4`, IPv6 → `2001:db8:1:2::/64`; null for no address. */
function addressKey(address: string): string | null {
  let key = keys.get(address);
  if (key === undefined) keys.set(address, (key = normalise(address) ?? NOT_AN_ADDRESS));
  return key === NOT_AN_ADDRESS ? null : key;
}

function normalise(address: string): string | null {
  const unbracketed = address.replace(/^\[|\]$/g, "");
  // Without the zone (`fe80::1%eth0`): an index rather than `/%.*$/`, which is retried from every `%`.
  const zone = unbracketed.indexOf("%");
  const bare = zone === -1 ? unbracketed : unbracketed.slice(0, zone);
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
