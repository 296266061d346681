// Browser steps wait on real work (builds, workers, page loads): a minute and a half per step
// before jest gives up, instead of the 30 s of the other projects.
jest.setTimeout(90_000);
