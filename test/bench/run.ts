/** `npm run bench [-- hanja|queries|quiz|runtimes|accesslog]`: runs one benchmark, or all of them in turn. */
const which = process.argv[2];
const all = ["hanja", "queries", "quiz", "runtimes", "accesslog"];
for (const name of which ? [which] : all) {
  if (!all.includes(name)) throw new Error(`unknown benchmark ${name}; choose one of ${all.join(", ")}`);
  console.log(`\n=== ${name} ===`);
  await import(`./${name}.bench.ts`);
}
export {};
