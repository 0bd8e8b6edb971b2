// Every error the page may show has its words in every language: the keys to check come from the
// Rust side (the engine's and the server's complete code lists), in the file LUDO_TEXT_KEYS names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LANGUAGES, allTexts } from '../../static/i18n/i18n.js';

const TEXTS = await allTexts();
const required = JSON.parse(readFileSync(process.env.LUDO_TEXT_KEYS, 'utf8'));
// The codes Rust lists, and every error text the page has beside them.
const errorKeys = Object.keys(TEXTS.en).filter((key) => /^(engine|refusal|rules\.error)\./.test(key));
const keys = [...new Set([...required, ...errorKeys])].filter((key) => !key.includes('@'));
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every error code has a text in every language of the page', () => {
  const missing = [];
  for (const language of Object.keys(LANGUAGES)) {
    for (const key of keys) if (typeof TEXTS[language][key] !== 'string') missing.push(`${language}: ${key}`);
  }
  assert.deepEqual(missing, []);
});

test('no error text of another language is left in English', () => {
  const english = [];
  for (const language of Object.keys(LANGUAGES).filter((l) => l !== 'en')) {
    for (const key of keys) if (TEXTS[language][key] === TEXTS.en[key]) english.push(`${language}: ${key}`);
  }
  assert.deepEqual(english, []);
});

test('every translation of an error fills the same placeholders as the English', () => {
  const differing = [];
  for (const language of Object.keys(LANGUAGES)) {
    for (const [key, text] of Object.entries(TEXTS[language])) {
      const base = key.split('@')[0];
      if (!keys.includes(base) || typeof TEXTS.en[base] !== 'string') continue;
      if (placeholders(text).join() !== placeholders(TEXTS.en[base]).join()) differing.push(`${language}: ${key}`);
    }
  }
  assert.deepEqual(differing, []);
});
