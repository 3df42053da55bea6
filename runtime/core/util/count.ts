/**
 * A whole number as the reference writes it (`10,000`). Grouped by a pattern rather than by
 * `toLocaleString`, whose first call loads the runtime's locale data: the plan table is made when
 * its module is imported, and that load was a large part of the time to import the package (see
 * RESULTS.md, "First answers when embedded").
 */
export function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
