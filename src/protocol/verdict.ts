// What verifying a signed artefact says, in one shape for every kind (identity files, receipts, the CLI's
// `verify`): whether it holds, who signed it, and every problem found. Each kind adds only what is its own.
export interface Verdict {
  valid: boolean;
  /** The signer as a did:key, when the artefact could be read far enough to name it. */
  signer?: string;
  motebit_id?: string;
  /** Whether motebit_id is the sovereign id of the signing key. */
  sovereign?: boolean;
  errors: string[];
}
