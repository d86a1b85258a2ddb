#!/usr/bin/env node
// The published CLI is the built bundle (npm run build -w local-stdio; `npm test` builds it first).
import "../dist/cli.js";
