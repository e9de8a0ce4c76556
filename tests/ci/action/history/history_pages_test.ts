import assert from "node:assert/strict";
import { join } from "node:path";
import { baselinesMain } from "../../../../ci/action/baselines.ts";
import { restoreFromBranch, saveToBranch } from "../../../../ci/action/baseline_git.ts";
import { historyPages, indexPage } from "../../../../ci/action/history/mod.ts";
import { gitIn, gitOrigin } from "../../../_helpers/git_fixtures.ts";
import { historyReport, planHistory } from "./_history_doc.ts";

const DIR = ".tailgate/baselines";
const BRANCH = "tailgate-baselines";
const OUT = "tailgate-out/history";

/**
 * What a job leaves in its clone `work`: the plans' updated history files, and for each plan the
 * `tailgate history` output (`<out>/history/<slug>/`: its page and its document, which names the
 * history file it read).
 */
async function jobFiles(work: string, plans: Record<string, string>): Promise<void> {
  await Deno.mkdir(join(work, DIR), { recursive: true });
  for (const [plan, runs] of Object.entries(plans)) {
    await Deno.writeTextFile(
      join(work, DIR, `${plan}.json`),
      `{"plan":"${plan}","runs":${runs}}\n`,
    );
    const dir = join(work, OUT, plan);
    await Deno.mkdir(dir, { recursive: true });
    const history = planHistory(plan, { runs: 12, startUs: 9_000, steps: [], recentRuns: 10 });
    await Deno.writeTextFile(
      join(dir, "history.json"),
      JSON.stringify(historyReport([history], 10)),
    );
    await Deno.writeTextFile(
      join(dir, "history.html"),
      `<!doctype html><title>${plan} ${runs}</title>\n`,
    );
  }
}

const show = (origin: string, path: string) => gitIn(origin, ["show", `${BRANCH}:${path}`]);
const listing = async (origin: string, path = "") =>
  (await gitIn(origin, ["ls-tree", "--name-only", `${BRANCH}:${path}`])).split("\n");

Deno.test("a save with history pages commits history.html and history.json in docs/, the one page as index.html", async () => {
  await using repo = await gitOrigin();
  const work = await repo.clone("work");
  await jobFiles(work, { shop: "1" });
  const pages = await historyPages(join(work, OUT));
  assert.deepEqual(pages.map((p) => p.name), ["shop"]);
  const saved = await saveToBranch({ cwd: work }, BRANCH, DIR, undefined, "first", { pages });
  assert.deepEqual(saved.changed, ["shop.json"]);
  assert.deepEqual(saved.pages, ["docs/shop.html", "docs/shop.json"]);
  assert.deepEqual(await listing(repo.origin), ["docs", "shop.json"]);
  assert.deepEqual(await listing(repo.origin, "docs"), [
    ".nojekyll",
    "index.html",
    "shop.html",
    "shop.json",
  ]);
  assert.equal(await show(repo.origin, "docs/shop.html"), "<!doctype html><title>shop 1</title>");
  assert.equal(await show(repo.origin, "docs/index.html"), "<!doctype html><title>shop 1</title>");
  const doc = JSON.parse(await show(repo.origin, "docs/shop.json"));
  assert.equal(doc.schema, "tailgate-history");
  // A later job restores only the histories, never the pages' documents, into baseline-dir.
  const next = await repo.clone("next");
  assert.deepEqual((await restoreFromBranch({ cwd: next }, BRANCH, DIR)).files, ["shop.json"]);
});

Deno.test("another plan's pages join the folder: index.html lists both, and a save without pages keeps them", async () => {
  await using repo = await gitOrigin();
  const first = await repo.clone("first");
  await jobFiles(first, { shop: "1" });
  await saveToBranch({ cwd: first }, BRANCH, DIR, undefined, "shop", {
    pages: await historyPages(join(first, OUT)),
  });

  const second = await repo.clone("second");
  const restored = await restoreFromBranch({ cwd: second }, BRANCH, DIR);
  await jobFiles(second, { cart: "1" });
  await saveToBranch({ cwd: second }, BRANCH, DIR, restored.commit, "cart", {
    pages: await historyPages(join(second, OUT)),
  });
  assert.deepEqual(await listing(repo.origin, "docs"), [
    ".nojekyll",
    "cart.html",
    "cart.json",
    "index.html",
    "shop.html",
    "shop.json",
  ]);
  assert.equal(await show(repo.origin, "docs/index.html"), indexPage(["cart", "shop"]).trimEnd());
  assert.match(await show(repo.origin, "docs/index.html"), /<a href="cart\.html">cart<\/a>/);

  // A job that ran no history (history: false) updates shop's history; the pages stay.
  const third = await repo.clone("third");
  const again = await restoreFromBranch({ cwd: third }, BRANCH, DIR);
  await Deno.writeTextFile(join(third, DIR, "shop.json"), '{"plan":"shop","runs":2}\n');
  const saved = await saveToBranch({ cwd: third }, BRANCH, DIR, again.commit, "no pages");
  assert.deepEqual([saved.changed, saved.pages], [["shop.json"], []]);
  assert.equal(await show(repo.origin, "shop.json"), '{"plan":"shop","runs":2}');
  assert.equal((await listing(repo.origin, "docs")).length, 6);
  assert.equal(await show(repo.origin, "docs/shop.html"), "<!doctype html><title>shop 1</title>");
});

Deno.test("the page of a history the job did not restore is not published: it lacks the branch's runs", async () => {
  await using repo = await gitOrigin();
  const seed = await repo.clone("seed");
  await jobFiles(seed, { shop: "10" });
  await saveToBranch({ cwd: seed }, BRANCH, DIR, undefined, "seed", {
    pages: await historyPages(join(seed, OUT)),
  });
  // The restore failed: the run started shop's history from one run, and cart's anew.
  const job = await repo.clone("job");
  await jobFiles(job, { shop: "1", cart: "1" });
  const saved = await saveToBranch({ cwd: job }, BRANCH, DIR, undefined, "job", {
    pages: await historyPages(join(job, OUT)),
  });
  assert.deepEqual([saved.changed, saved.kept], [["cart.json"], ["shop.json"]]);
  assert.deepEqual(saved.pages, ["docs/cart.html", "docs/cart.json"]);
  assert.equal(await show(repo.origin, "docs/shop.html"), "<!doctype html><title>shop 10</title>");
});

Deno.test("baselines save publishes the pages of the run step's history-dir, and says so", async () => {
  await using repo = await gitOrigin();
  const work = await repo.clone("work");
  await jobFiles(work, { shop: "1" });
  const printed: string[] = [];
  const code = await baselinesMain("save", {
    TAILGATE_BASELINE: "branch",
    TAILGATE_HISTORY_DIR: OUT,
    GITHUB_WORKSPACE: work,
  }, (l) => printed.push(l));
  assert.equal(code, 0);
  const head = await gitIn(repo.origin, ["rev-parse", BRANCH]);
  assert.deepEqual(printed, [
    `pushed shop.json, docs/shop.html, docs/shop.json to ${BRANCH} (${head})`,
  ]);
  assert.equal(await show(repo.origin, "docs/index.html"), "<!doctype html><title>shop 1</title>");
});

Deno.test("historyPages() skips a folder without a page or with a document naming no history file", async () => {
  await using repo = await gitOrigin();
  const work = join(repo.root, "job");
  await jobFiles(work, { shop: "1", cart: "1" });
  await Deno.remove(join(work, OUT, "cart", "history.html"));
  await Deno.mkdir(join(work, OUT, "odd"));
  await Deno.writeTextFile(join(work, OUT, "odd", "history.html"), "<p>no document</p>");
  assert.deepEqual((await historyPages(join(work, OUT))).map((p) => p.name), ["shop"]);
  assert.deepEqual(await historyPages(join(work, "absent")), []);
});

Deno.test("indexPage() escapes names and runs no script", () => {
  const page = indexPage(['a<b>&"c']);
  assert.match(page, /<li><a href="a%3Cb%3E%26%22c\.html">a&lt;b&gt;&amp;&quot;c<\/a><\/li>/);
  assert.doesNotMatch(page, /<script/);
  assert.match(page, /Content-Security-Policy" content="default-src 'none'/);
});
