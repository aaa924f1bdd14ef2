// Drives "Transcribe again with …" on a conversation's console page in the
// system's headless Chromium: the owner signs in, opens a conversation
// whose live transcript was a script's, chooses the PocketSphinx route,
// and watches the job replace the transcript with what the kept audio
// says. The Go test (cmd/hearth/retranscribe_test.go) starts the
// appliance, records the conversation and passes BASE, NAME, PASSWORD,
// CONV (its id) and CHROMIUM; "OK" on stdout is success.
import { chromium } from "playwright-core";

const env = (k) => {
  if (!process.env[k]) throw new Error(`${k} is not set`);
  return process.env[k];
};
const check = (ok, what) => {
  if (!ok) throw new Error(`check failed: ${what}`);
};

const browser = await chromium.launch({ executablePath: env("CHROMIUM"), args: ["--no-sandbox", "--disable-dev-shm-usage"] });
try {
  const page = await browser.newPage();
  await page.goto(`${env("BASE")}/console#/conversations/${env("CONV")}`);
  await page.locator("#login-name").fill(env("NAME"));
  await page.locator("#login-password").fill(env("PASSWORD"));
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.goto(`${env("BASE")}/console#/conversations/${env("CONV")}`);
  await page.locator("#conv-audio").waitFor();
  const before = await page.locator("#transcript").innerText();
  check(before.includes("passport"), `the live transcript: ${before}`);

  const route = page.getByLabel("Transcribe again with");
  await page.locator('#conv-again-route option[value="pocketsphinx"]').waitFor({ state: "attached", timeout: 10000 }).catch(async (e) => {
    console.log(await page.locator("#main").innerHTML());
    throw e;
  });
  await route.selectOption("pocketsphinx");
  await page.getByRole("button", { name: "Transcribe again" }).click();
  // The page redraws with the new transcript when the job is done.
  await page.locator("#transcript", { hasNotText: "passport" }).waitFor({ timeout: 60000 });
  const after = (await page.locator("#transcript").innerText()).toLowerCase();
  check(/dentist|thursday|afternoon|easter/.test(after), `the transcript from the audio: ${after}`);
  check(await page.getByRole("button", { name: "Transcribe again" }).isEnabled(), "the button is usable again");
  console.log("OK");
} finally {
  await browser.close();
}
