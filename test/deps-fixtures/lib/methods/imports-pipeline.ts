// expect: no-folder-cycles (methods/ and pipeline/ share a tier, so only the folder cycle speaks)
import { pipeline } from '../pipeline/pipeline-stub.js';

export const found = pipeline;
