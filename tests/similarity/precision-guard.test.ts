import { Cache, ValidationError, get, managerFactory } from "../../src/index.js";
import { UniversalSentenceEncoderEmbeddings } from "../../src/embeddings/use.js";
import { guardFeatures, type GuardFeatureName } from "../../src/similarity/guard-features.js";
import { checkGuardModel, guardListsDigest, guardProbability, type GuardModel } from "../../src/similarity/guard-model.js";
import { conflicts, hasOppositeAction, jaccard, namesTraded, namesUnmentioned, negatesWhatOtherAffirms, oneSided, questionFacts, stem, type QuestionFacts } from "../../src/similarity/guard-text.js";
import { DEFAULT_GUARD_MODEL, DEFAULT_GUARD_THRESHOLD, PrecisionGuardEvaluation } from "../../src/similarity/precision-guard.js";
import { DEFAULT_PRESET_THRESHOLD, presetEvaluation } from "../../src/similarity/preset.js";
import type { SimilarityEvaluation } from "../../src/core/contracts/evaluation.js";
import { syntheticPair, testSimilarityEvaluation } from "../../src/testing/evaluation-contract.js";
import { tempDir } from "../helpers/fixtures.js";

// The shipped model's pair network reads 512-d embeddings (the offline USE model's).
const pair512 = (question: string, cachedQuestion: string) => syntheticPair(question, cachedQuestion, 512);
testSimilarityEvaluation({
  name: "PrecisionGuardEvaluation",
  create: () => new PrecisionGuardEvaluation(),
  identical: () => pair512("what is the capital of france", "what is the capital of france"),
  different: () => pair512("what is the capital of france", "how do i bake bread"),
  pair: pair512,
});

/** A test of two questions' facts, given the two questions. */
const onFacts =
  <T>(test: (a: QuestionFacts, b: QuestionFacts) => T) =>
  (a: string, b: string) =>
    test(questionFacts(a), questionFacts(b));

describe("guard text facts", () => {
  it("stems inflections and irregular forms onto one word", () => {
    expect(["install", "installs", "installing", "installed"].map(stem)).toEqual(Array(4).fill("install"));
    expect(["enable", "enabled", "enabling"].map(stem)).toEqual(Array(3).fill("enabl"));
    expect(stem("bought")).toBe(stem("buy"));
    expect(stem("sold")).toBe(stem("sell"));
  });

  it("reads content words, numbers, entities, negation, question word and length", () => {
    const facts = questionFacts("How do I get from Paris to Berlin in 2 days? I don't want to fly.");
    expect([...facts.content].sort()).toEqual(["2", "berlin", "days", "don't", "fly", "get", "paris", "want"]);
    expect([...facts.numbers]).toEqual(["2"]);
    expect([...facts.entities].sort()).toEqual(["berlin", "paris"]);
    expect(facts.negated).toBe(true);
    expect([...facts.negatedStems]).toEqual(["want"]);
    expect(facts.questionWord).toBe("how");
    expect(facts.length).toBe(16);
    expect(questionFacts("Why is the sky blue?")).toMatchObject({ negated: false, questionWord: "why", numbers: new Set() });
  });

  it("does not take a sentence's first word, or 'I', for an entity", () => {
    expect([...questionFacts("Where can I buy shoes? Cheap ones please.").entities]).toEqual([]);
    expect([...questionFacts("What should I do if I'm sick and I've a fever?").entities]).toEqual([]);
  });

  it("joins a name's capitalised words and reads its initials and acronyms", () => {
    const facts = questionFacts("Can I use Hugging Face for Machine Learning in the US?");
    expect([...facts.entities]).toEqual(["huggingface", "machinelearning", "us"]);
    expect(Object.fromEntries(facts.nameInitials)).toEqual({ huggingface: "hf", machinelearning: "ml" });
    expect([...facts.acronyms]).toEqual(["us"]);
    // One word capitalised inside has the initials of its parts; "iPhone" has one, no initials.
    expect(Object.fromEntries(questionFacts("Is JavaScript on YouTube or an iPhone?").nameInitials)).toEqual({ javascript: "js", youtube: "yt" });
    expect(Object.fromEntries(questionFacts("Does macOS or iOS use IPv6?").nameInitials)).toEqual({});
    // Capitalised words run together are a name even first in a sentence.
    expect([...questionFacts("JavaScript or TypeScript?").entities]).toEqual(["javascript", "typescript"]);
  });

  it("takes a word capitalised inside for a name wherever it stands (iPhone, macOS, eBay)", () => {
    expect([...questionFacts("iPhone or Android: which lasts longer on macOS updates?").entities]).toEqual(["iphone", "android", "macos"]);
    expect([...questionFacts("How do I sell on eBay?").entities]).toEqual(["ebay"]);
    expect([...questionFacts("Is it worth it?").entities]).toEqual([]);
  });

  it("finds names the other side does not mention, written together, apart, in any case or as initials", () => {
    const unmentioned = onFacts(namesUnmentioned);
    expect(unmentioned("How do I learn Python?", "How do I learn Java?")).toBe(true);
    expect(unmentioned("How do I learn Python?", "how do i learn python")).toBe(false);
    expect(unmentioned("Is Hugging Face free?", "Is Huggingface free?")).toBe(false);
    expect(unmentioned("Is Huggingface free?", "Is Hugging Face free?")).toBe(false);
    expect(unmentioned("What is ML used for?", "What is machine learning used for?")).toBe(false);
    expect(unmentioned("What is Machine Learning used for?", "What is ML used for?")).toBe(false);
    expect(unmentioned("What is JS used for?", "What is JavaScript used for?")).toBe(false);
    expect(unmentioned("What is JavaScript used for?", "What is JS used for?")).toBe(false);
    expect(unmentioned("What is TS used for?", "What is JavaScript used for?")).toBe(true);
    // Another name of the same thing, as a name, or in lower case where it is no common word.
    expect(unmentioned("How do I write a TCP server in Go?", "How can I build a TCP server using Golang?")).toBe(false);
    expect(unmentioned("How can I build a TCP server using Golang?", "How do I write a TCP server in Go?")).toBe(false);
    expect(unmentioned("How do I migrate from MySQL to PostgreSQL?", "How do I move from MySQL to Postgres?")).toBe(false);
    expect(unmentioned("How do I install ReactJS on Windows?", "How do I install React Native on Windows?")).toBe(true);
    expect(unmentioned("What is the macOS version of an Apple TV?", "What is the MAC address of an Apple TV?")).toBe(true);
    expect(unmentioned("How do I add a printer on macOS?", "How can I set up a new printer on OS X?")).toBe(false);
    // A Mac is a computer, macOS its system: "the newest Mac" is not "the newest macOS".
    expect(unmentioned("What is the newest Mac?", "What is the newest macOS?")).toBe(true);
    // A Mac stays a Mac: its price is not macOS's.
    expect(unmentioned("How can I set up a new printer on my Mac?", "How do I add a printer on macOS?")).toBe(true);
    expect(unmentioned("What is the best antivirus for Mac?", "What is the best Mac antivirus?")).toBe(false);
    expect(unmentioned("How do I clear the cache on my Mac?", "How do I clear my Mac's cache?")).toBe(false);
    expect(unmentioned("How much does a Mac cost?", "How much does macOS cost?")).toBe(true);
    expect(unmentioned("How do I filter for MAC addresses?", "How do I filter for macOS addresses?")).toBe(true);
    expect(unmentioned("Should I learn Golang?", "Should I go and learn Rust?")).toBe(true);
    // A people's adjective names its country.
    expect(unmentioned("Who was the prime minister of the UK in 1980?", "Who served as British prime minister in 1980?")).toBe(false);
    expect(unmentioned("Why doesn't America use the metric system?", "Why hasn't the United States switched to the metric system?")).toBe(false);
    expect(unmentioned("Who served as British prime minister in 1980?", "Who was the prime minister of France in 1980?")).toBe(true);
    // And so does a people's word WordNet links to its region, no language unless in the plural ("American" / "Canadian" are not).
    expect(unmentioned("Are Indians mostly vegetarian?", "Is India mostly vegetarian?")).toBe(false);
    expect(unmentioned("Why do Germans like beer?", "Why does Germany like beer?")).toBe(false);
    expect(unmentioned("Where can I study French?", "Where can I study in France?")).toBe(true);
    expect(unmentioned("Do Canadians need a visa for the UK?", "Do Americans need a visa for the UK?")).toBe(true);
    // Only a place's people: not a language and its island, nor a founder and the faith.
    expect(unmentioned("How do I learn Java?", "How do I learn Javanese?")).toBe(true);
    expect(unmentioned("What did Jesus teach?", "What did Christians teach?")).toBe(true);
    expect(unmentioned("What languages are spoken in the Americas?", "What languages are spoken in the USA?")).toBe(true);
    // A people's word inside a thing's name names no place.
    expect(unmentioned("How popular is American football?", "How popular is football in the US?")).toBe(true);
    expect(unmentioned("How do I make French toast?", "How do I make toast in France?")).toBe(true);
    // Other names in capitals: "WWII" is the Second World War, "UK" Britain; the people are not the country.
    expect(unmentioned("When did WWII end?", "In what year did the Second World War end?")).toBe(false);
    expect(unmentioned("In what year did the Second World War end?", "When did WWII end?")).toBe(false);
    expect(unmentioned("When did World War II end?", "When did WWII end?")).toBe(false);
    expect(unmentioned("When did World War 2 end?", "When did WWII end?")).toBe(false);
    expect(unmentioned("Who won WW1?", "Who won the First World War?")).toBe(false);
    expect(unmentioned("What caused World War I?", "What caused WWII?")).toBe(true);
    expect(unmentioned("What caused World War I?", "What caused World War II?")).toBe(true);
    expect(unmentioned("Do US citizens need a visa for Japan?", "Do Americans need a visa for Japan?")).toBe(false);
    expect(unmentioned("Can you help the USA?", "Can you help us?")).toBe(true);
    expect(unmentioned("Do I need a visa for the US?", "Do I need a visa for the United States?")).toBe(false);
    expect(unmentioned("Do I need a visa for the USA?", "Do I need a visa for the United States?")).toBe(false);
    expect(unmentioned("Who was the prime minister of the UK in 1980?", "Who was the prime minister of Britain in 1980?")).toBe(false);
    // Initials stand only for the words in the same order, and only when written in capitals.
    expect(unmentioned("What is ML used for?", "What is learning machine used for?")).toBe(true);
    expect(unmentioned("Where is Ml?", "Where is my laptop?")).toBe(true);
    expect(unmentioned("Is Face free?", "Is Huggingface free?")).toBe(true);
    // An initialism's plural names the same thing, both ways; "AWS" is no plural.
    expect(unmentioned("How do I merge two PDFs?", "How do I merge two PDF files?")).toBe(false);
    expect(unmentioned("How do I merge two PDF files?", "How do I merge two PDFs?")).toBe(false);
    expect(unmentioned("How do I call two APIs at once?", "How do I call an API?")).toBe(false);
    expect(unmentioned("Is AWS free?", "Is AW free?")).toBe(true);
    expect(unmentioned("Is AW free?", "Is AWS free?")).toBe(true);
    // A name's plural names it too, both ways.
    expect(unmentioned("Are the 2016 MacBook Pros worth it?", "Is the 2016 MacBook Pro worth it?")).toBe(false);
    expect(unmentioned("What do Sunnis believe?", "What does a Sunni believe?")).toBe(false);
    // Only a word written as a plural is one: capitals and a model's letter are not ("AWS", "iOS", "Series S").
    expect(unmentioned("Is Aw free?", "Is AWS free?")).toBe(true);
    expect(unmentioned("What is Io?", "What is iOS?")).toBe(true);
    expect(unmentioned("Is the Xbox Series S worth it?", "Is the Xbox Series X worth it?")).toBe(true);
    expect(unmentioned("Is the Xbox Series X worth it?", "Is the Xbox Series S worth it?")).toBe(true);
    expect(unmentioned("How do I back up my iPhone?", "How do I back up my Android phone?")).toBe(true);
    expect(unmentioned("How do I back up my iPhone?", "how to backup an iphone")).toBe(false);
  });

  it("sees names written in other words trade places, not names written alike", () => {
    const traded = onFacts(namesTraded);
    expect(traded("Can a US citizen work in the UK?", "Can a British citizen work in the US?")).toBe(true);
    expect(traded("Do Indians like Pakistan?", "Do Pakistanis like India?")).toBe(true);
    expect(traded("Is the UK bigger than France?", "Is France smaller than Britain?")).toBe(false);
    expect(traded("Which is bigger, the UK or France?", "Which is bigger, France or Britain?")).toBe(false);
    expect(traded("Can an American living in the UK vote in US elections?", "Can a US citizen living in Britain vote in American elections?")).toBe(false);
    expect(traded("How do I fly from London to Paris?", "How do I fly to Paris from London?")).toBe(false);
    expect(traded("Who was the French president in 1990?", "Who was the president of France in 1990?")).toBe(false);
  });

  it("reads what each negation bears on, within its clause", () => {
    const negated = (text: string) => [...questionFacts(text).negatedStems];
    expect(negated("Is coffee not good for you?")).toEqual([stem("good")]);
    expect(negated("If the dataset doesn't have any associated metadata")).toEqual([stem("associated")]);
    expect(negated("In the absence of metadata")).toEqual([stem("metadata")]);
    expect(negated("No, it can be installed with pip.")).toEqual([]);
    expect(negated("Should I buy it or not?")).toEqual([]);
    expect(negated("It loads not only audio but also images.")).toEqual([]);
    expect(negated("What foods are gluten-free?")).toEqual([stem("gluten")]);
    // A file's dot is no full stop; an abbreviation's still is ("no." for number).
    expect(negated("Which files should not be in .gitignore?")).toEqual([stem("gitignore")]);
    expect(negated("How I register my mobile no.in sbi?")).toEqual([]);
  });

  it("sees a negation only where the other side affirms what it negates", () => {
    const opposed = onFacts(negatesWhatOtherAffirms);
    expect(opposed("Is coffee not good for you?", "Is coffee good for you?")).toBe(true);
    expect(opposed("What foods are gluten-free?", "What foods contain gluten?")).toBe(true);
    expect(opposed("Is sugar-free gum bad for you?", "Is gum without sugar bad for you?")).toBe(false);
    expect(opposed("Is gelato dairy-free?", "Why is gelato dairy free?")).toBe(false);
    expect(opposed("Why isn't gluten free bread healthy?", "Why is gluten free bread healthy?")).toBe(true);
    expect(opposed("Why can't I sleep?", "Why do I sleep so much?")).toBe(true);
    expect(opposed("How do I make tea?", "How do I make tea without milk?")).toBe(false);
    expect(opposed("The parameter is not mandatory.", "The parameter is optional.")).toBe(false);
    expect(opposed("It doesn't have metadata.", "In the absence of metadata, it guesses.")).toBe(false);
    expect(opposed("No, it can be installed with pip.", "It can be installed with pip.")).toBe(false);
  });

  it("reads a 'fail' or 'unable' before its 'to' as a negation of what follows", () => {
    const opposed = onFacts(negatesWhatOtherAffirms);
    expect([...questionFacts("Why does my car fail to start?").negatedStems]).toEqual([stem("start")]);
    expect(opposed("Why won't my car start?", "Why does my car fail to start?")).toBe(false);
    expect(opposed("Why is my phone unable to connect to Wi-Fi?", "Why won't my phone connect to Wi-Fi?")).toBe(false);
    expect(opposed("Why does my car fail to start?", "Why does my car start?")).toBe(true);
    expect(questionFacts("Why does the test fail?").negated).toBe(false);
    // A failure told in a noun, and a failure negated.
    expect(opposed("Why does Windows fail to boot?", "How do I fix a Windows boot failure?")).toBe(false);
    expect(opposed("Why does my PC fail to boot after a power failure?", "Why does my PC boot after a power failure?")).toBe(true);
    expect(opposed("Why does my alarm fail to wake me?", "Why does my alarm never fail to wake me?")).toBe(true);
    expect(questionFacts("Why do cats never fail to land on their feet?").negated).toBe(false);
  });

  it("sees each negation form", () => {
    for (const text of ["is it not safe", "no sugar", "never again", "it isn't", "tea without milk", "I can’t", "non-streaming mode"]) {
      expect(questionFacts(text).negated).toBe(true);
    }
  });

  it("measures overlap, substitutions and one-sided details on sets", () => {
    const set = (...items: string[]) => new Set(items);
    expect(jaccard(set("a", "b"), set("b", "c"))).toBeCloseTo(1 / 3);
    expect(jaccard(set(), set())).toBe(1);
    expect(conflicts(set("2"), set("3"))).toBe(true);
    expect(conflicts(set("2"), set("2", "3"))).toBe(false);
    expect(oneSided(set("2"), set())).toBe(true);
    expect(oneSided(set("2"), set("3"))).toBe(false);
  });

  it("finds opposite actions in either direction, but not when both words appear on one side", () => {
    const opposite = onFacts(hasOppositeAction);
    expect(opposite("How do I install Docker?", "How do I uninstall Docker?")).toBe(true);
    expect(opposite("how to disable wifi", "how to enable wifi")).toBe(true);
    expect(opposite("Should I buy bitcoin?", "Should I sell bitcoin?")).toBe(true);
    expect(opposite("install or uninstall docker", "how to uninstall docker")).toBe(false);
    expect(opposite("How do I install Docker?", "How can I install Docker?")).toBe(false);
  });

  it("reads an opposite as an action only where it does one: not a participle telling a noun's state, nor a zip file", () => {
    const opposite = onFacts(hasOppositeAction);
    expect(opposite("How do I uninstall all pip packages?", "How can I remove every package installed with pip?")).toBe(false);
    expect(opposite("How do I extract a zip file on Windows?", "How can I unzip an archive in Windows?")).toBe(false);
    expect(opposite("How to remove packages installed with pip?", "How to uninstall pip packages")).toBe(false);
    expect(opposite("How do I remove all installed pip packages?", "How do I uninstall all pip packages?")).toBe(false);
    expect(opposite("How do I open a locked door?", "How do I unlock a door?")).toBe(false);
    // A long noun phrase before the participle, and an adjective in -ly before a zip file.
    expect(opposite("How do I remove all of the old Python packages installed with pip?", "How do I uninstall all old Python pip packages?")).toBe(false);
    expect(opposite("How do I extract daily zip files?", "How do I unzip daily archives?")).toBe(false);
    // The other side's word in any reading keeps the pair apart, as before.
    expect(opposite("How do I stop programs started automatically?", "How to prevent programs from starting automatically?")).toBe(false);
    // A participle whose noun is its clause's subject, after a function word or a passive's auxiliary, and the verb "zip" still act.
    expect(opposite("Why was my Samsung Galaxy app uninstalled?", "Why was my Samsung Galaxy app installed?")).toBe(true);
    expect(opposite("Why isn't my app installed?", "Why isn't my app uninstalled?")).toBe(true);
    expect(opposite("I accidentally uninstalled Chrome", "I accidentally installed Chrome")).toBe(true);
    expect(opposite("My friend blocked me on Instagram", "My friend unblocked me on Instagram")).toBe(true);
    expect(opposite("Windows installed an update overnight", "Windows uninstalled an update overnight")).toBe(true);
    expect(opposite("Can I see if someone blocked me?", "Can I see if someone unblocked me?")).toBe(true);
    expect(opposite("How do I zip a folder?", "How do I unzip a folder?")).toBe(true);
    expect(opposite("How to zip files in Linux?", "How to unzip files in Linux?")).toBe(true);
    expect(opposite("Zip files and folders", "Unzip files and folders")).toBe(true);
    expect(opposite("Windows can't zip files", "Windows can't unzip files")).toBe(true);
    expect(opposite("Lets zip files", "Lets unzip files")).toBe(true);
    expect(opposite("Windows won't let me zip files", "Windows won't let me unzip files")).toBe(true);
    expect(opposite("Quickly zip files", "Quickly unzip files")).toBe(true);
    // A subject after a word of time, a verb that makes the participle an action, a relative "that", a sentence's start.
    expect(opposite("Today my friend blocked me", "Today my friend unblocked me")).toBe(true);
    expect(opposite("Early today my friend blocked me", "Early today my friend unblocked me")).toBe(true);
    expect(opposite("Help, my account got locked", "Help, my account got unlocked")).toBe(true);
    expect(opposite("How do I get Chrome uninstalled?", "How do I get Chrome installed?")).toBe(true);
    expect(opposite("Can I remove apps that installed themselves?", "Can I remove apps that uninstalled themselves?")).toBe(true);
    expect(opposite("I need help. Uninstalled Chrome by accident", "I need help. Installed Chrome by accident")).toBe(true);
  });

  it("reads numbers without thousands separators, and temperatures spelled out", () => {
    expect([...questionFacts("Is 1,000 more than 999 or 1,234,567?").numbers]).toEqual(["1000", "999", "1234567"]);
    expect(conflicts(questionFacts("an IQ of 1000").numbers, questionFacts("an IQ of 1,000").numbers)).toBe(false);
    const unnamed = onFacts(namesUnmentioned);
    for (const written of ["350°F", "350 °F", "350 degrees F"]) {
      expect(unnamed(`How long do I bake chicken at ${written}?`, "How long do I bake chicken at 350 degrees Fahrenheit?")).toBe(false);
    }
    expect([...questionFacts("Is 20°C warm?").entities]).toEqual(["celsius"]);
    expect(unnamed("Is 100.4 F a fever?", "Is 100.4°F a fever?")).toBe(false);
    expect(unnamed("Bake at 350°F?", "Bake at 350°C?")).toBe(true);
    expect(unnamed("How long do I bake chicken at 350°F?", "How long do I bake chicken at 350 F?")).toBe(false);
    expect([...questionFacts("Can I get a degree C++ developer job?").entities]).toEqual(["c"]);
    expect(unnamed("Bake at 350℉?", "Bake at 350 degrees Fahrenheit?")).toBe(false);
    expect([...questionFacts("Where is the Windows 10 C drive?").entities]).toEqual(["windows", "c"]);
  });
});

describe("guard features and model", () => {
  it("ships a model fitted with the word lists its features read", () => {
    // Changing a list in guard-text.ts (GUARD_LISTS) or the lexicon needs a new `npx tsx scripts/fit-guard.ts`, which records the digest.
    expect(guardListsDigest()).toBe(DEFAULT_GUARD_MODEL.fitted?.listsDigest);
  });

  const all: GuardFeatureName[] = [
    "cosine",
    "cosine2",
    "overlap",
    "numberConflict",
    "numberOneSided",
    "entityConflict",
    "entityOneSided",
    "negationMismatch",
    "oppositeAction",
    "lengthRatio",
    "questionWordMismatch",
  ];
  const features = (a: string, b: string, cosine = 0.9) => Object.fromEntries(all.map((name, i) => [name, guardFeatures(all, cosine, a, b)[i]]));

  it("computes each feature of a pair", () => {
    expect(features("What is 2 plus 2 even in Rome?", "Why is 2 plus 3 not even in Paris?", 0.8)).toEqual({
      cosine: 0.8,
      cosine2: expect.closeTo(0.64, 10),
      overlap: 3 / 6,
      numberConflict: 0,
      numberOneSided: 0,
      entityConflict: 1,
      entityOneSided: 0,
      negationMismatch: 1,
      oppositeAction: 0,
      lengthRatio: 8 / 9,
      questionWordMismatch: 1,
    });
    expect(features("Is 5 prime?", "Is 7 prime?")).toMatchObject({ numberConflict: 1, numberOneSided: 0 });
    expect(features("Best phone in 2020?", "Best phone?")).toMatchObject({ numberConflict: 0, numberOneSided: 1 });
    expect(features("How to install git", "How to uninstall git")).toMatchObject({ oppositeAction: 1, negationMismatch: 0 });
    expect(features("Is Python fast?", "Is Java fast?")).toMatchObject({ entityConflict: 1, entityOneSided: 0 });
    expect(features("Is Python fast?", "Is python fast?")).toMatchObject({ entityConflict: 0, entityOneSided: 0 });
    expect(features("Is Python fast?", "Is it fast?")).toMatchObject({ entityConflict: 0, entityOneSided: 1 });
  });

  it("weighs standardised features with a logistic function", () => {
    const model: GuardModel = { version: 1, embedding: "x", features: ["cosine"], mean: [0.5], scale: [0.25], weights: [2], bias: 0, vetoes: [] };
    expect(guardProbability(model, [0.5])).toBe(0.5);
    expect(guardProbability(model, [0.75])).toBeCloseTo(1 / (1 + Math.exp(-2)));
  });

  it("rejects malformed models with a ValidationError", () => {
    const good: GuardModel = { version: 1, embedding: "x", features: ["cosine"], mean: [0], scale: [1], weights: [1], bias: 0, vetoes: [] };
    expect(checkGuardModel(good)).toBe(good);
    for (const bad of [
      { ...good, features: ["nope"] },
      { ...good, weights: [] },
      { ...good, bias: Number.NaN },
      { ...good, vetoes: ["oppositeAction"] },
    ]) {
      expect(() => checkGuardModel(bad as GuardModel)).toThrow(ValidationError);
      expect(() => new PrecisionGuardEvaluation({ model: bad as GuardModel })).toThrow(ValidationError);
    }
  });

  it("ships a fitted model with the vetoes its fitting kept and a recommended threshold", () => {
    expect(DEFAULT_GUARD_MODEL.features).toEqual(all);
    expect(DEFAULT_GUARD_THRESHOLD).toBe(DEFAULT_GUARD_MODEL.fitted?.recommendedThreshold?.guard);
    expect(DEFAULT_GUARD_THRESHOLD).toBeGreaterThan(0);
    expect(DEFAULT_GUARD_THRESHOLD).toBeLessThan(1);
    expect(DEFAULT_GUARD_MODEL.vetoes).toEqual(expect.arrayContaining(["numberConflict", "oppositeAction", "negationMismatch", "entityConflict"]));
  });

  it("scores a vetoed pair 0 whatever its cosine, and equal questions 1", () => {
    const guard = new PrecisionGuardEvaluation();
    const judge = (a: string, b: string, distance: number) => guard.evaluation({ question: a }, { question: b, answer: "", distance });
    expect(judge("How do I install Docker?", "How do I uninstall Docker?", 0)).toBe(0);
    expect(judge("Is 5 prime?", "Is 7 prime?", 0)).toBe(0);
    expect(judge("what is  Docker?", "What is docker? ", 0.3)).toBe(1);
    expect(judge("How do I learn Docker?", "How can I learn Docker?", 0.05)).toBeGreaterThan(judge("How do I learn Docker?", "How can I learn Docker?", 0.3));
  });

  it("blends in the cosine by cosineWeight, and keeps vetoed pairs at 0", () => {
    const pair = pair512("how do i bake sourdough bread at home", "how to bake sourdough bread at home");
    const cosine = 1 - (pair.cached.distance ?? 1);
    const alone = new PrecisionGuardEvaluation().evaluation(pair.src, pair.cached);
    const blended = new PrecisionGuardEvaluation({ cosineWeight: 0.25 }).evaluation(pair.src, pair.cached);
    expect(blended).toBeCloseTo(0.75 * alone + 0.25 * cosine, 9);
    expect(new PrecisionGuardEvaluation({ cosineWeight: 1 }).evaluation(pair.src, pair.cached)).toBeCloseTo(cosine, 9);
    const vetoed = pair512("How do I install Docker?", "How do I uninstall Docker?");
    expect(new PrecisionGuardEvaluation({ cosineWeight: 1 }).evaluation(vetoed.src, vetoed.cached)).toBe(0);
    for (const cosineWeight of [-0.1, 1.5, Number.NaN, "0.5"]) {
      expect(() => new PrecisionGuardEvaluation({ cosineWeight: cosineWeight as number })).toThrow(ValidationError);
    }
  });

  it("uses a custom model, and serialises with it", () => {
    const model: GuardModel = { version: 1, embedding: "x", features: ["cosine"], mean: [0], scale: [1], weights: [0], bias: 0, vetoes: [] };
    const guard = new PrecisionGuardEvaluation({ model });
    expect(guard.evaluation({ question: "a" }, { question: "b", answer: "", distance: 0.1 })).toBe(0.5);
    expect(JSON.parse(JSON.stringify(guard))).toMatchObject({ type: "constructor", kwargs: { model } });
  });
});

const judges: Array<[string, () => SimilarityEvaluation, number]> = [
  ["PrecisionGuardEvaluation", () => new PrecisionGuardEvaluation(), DEFAULT_GUARD_THRESHOLD],
  ["the preset's judge", presetEvaluation, DEFAULT_PRESET_THRESHOLD],
];

describe.each(judges)("%s in a real Cache with the offline USE model", (_name, judge, threshold) => {
  const stored = [
    "How do I install Python on Windows 10?",
    "What is the population of France?",
    "Is coffee good for your health?",
    "How do I enable dark mode in Chrome?",
    "What is 15% of 80?",
  ];
  const mustMiss = [
    "How do I uninstall Python on Windows 10?",
    "How do I install Python on Windows 11?",
    "What is the population of Germany?",
    "Is coffee not good for your health?",
    "How do I disable dark mode in Chrome?",
    "What is 20% of 80?",
  ];
  const mustHit: Array<[string, number]> = [
    ["How can I install Python on Windows 10?", 0],
    ["what is the population of France", 1],
    ["How do I turn on dark mode in Chrome?", 3],
  ];
  const dir = tempDir();
  let cache: Cache;

  beforeAll(async () => {
    cache = await new Cache().init({
      embeddingFunc: new UniversalSentenceEncoderEmbeddings(),
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
      similarityEvaluation: judge(),
      config: { similarityThreshold: threshold },
    });
    await cache.importData(stored, stored.map((_, i) => `answer ${i}`));
  });

  afterAll(async () => {
    await cache.close();
    dir.cleanup();
  });

  it.each(mustMiss)("does not answer %j from a question that differs in a number, entity, negation or action", async (question) => {
    expect(await get(question, { cacheObj: cache })).toBeNull();
  });

  it.each(mustHit)("still answers the paraphrase %j", async (question, index) => {
    expect(await get(question, { cacheObj: cache })).toBe(`answer ${index}`);
  });
});
