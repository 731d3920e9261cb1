/** Counts the characters the tokenizer looks at, so tests can bound its work on hostile input. */
export interface WorkMeter {
  steps: number;
}
