/** The playground: a page served beside the endpoint to try tools, prompts and resources from a browser. */
export { playgroundAssets, playgroundPath, type PlaygroundAsset } from './playground-assets.js';
