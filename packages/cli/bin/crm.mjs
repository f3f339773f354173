#!/usr/bin/env node
// Runs the TypeScript CLI with the tsx loader, so the workspace needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
