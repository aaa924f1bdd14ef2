// consent.mjs is the "browser" mcp-remote opens (BROWSER=consent.sh): it
// loads Hearth's consent page, approves with the owner's console name and
// password (HEARTH_CONSENT_NAME, HEARTH_CONSENT_PASSWORD), and follows the
// redirect to mcp-remote's loopback callback, as a person in a browser would.
const authorize = process.argv[2];
const page = await fetch(authorize);
const html = await page.text();
if (page.status !== 200 || !html.includes('name="password"')) {
  console.error(`consent page: ${page.status} ${html.slice(0, 300)}`);
  process.exit(1);
}
const form = new URLSearchParams();
for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
  form.set(name, value.replaceAll("&amp;", "&").replaceAll("&#43;", "+").replaceAll("&#34;", '"').replaceAll("&#39;", "'"));
}
form.set("name", process.env.HEARTH_CONSENT_NAME);
form.set("password", process.env.HEARTH_CONSENT_PASSWORD);
form.set("decision", "approve");
const decided = await fetch(new URL("/oauth/authorize", authorize), { method: "POST", body: form, redirect: "manual" });
const back = decided.headers.get("location");
if (decided.status !== 302 || !back || !new URL(back).searchParams.get("code")) {
  console.error(`consent: ${decided.status} ${back} ${(await decided.text()).slice(0, 300)}`);
  process.exit(1);
}
const callback = await fetch(back);
if (!callback.ok) {
  console.error(`mcp-remote's callback: ${callback.status}`);
  process.exit(1);
}
