/**
 * The layer arrows of docs/architecture.md, enforced on every test run:
 *
 *   renderer/ ──► app/ ◄── main/ ──► native-models/ ──► app/
 *
 * Do not relax these rules: they are what keeps app/ runnable in the browser and the renderer free of Node.
 */
// Unit tests run in Node and may read fixtures from disk.
const testFiles = '\\.test\\.tsx?$';
const nodeBuiltins = { dependencyTypes: ['core'] };
const nativeOrNodeOnly = {
  path: [
    'node_modules/(better-sqlite3|onnxruntime-node|onnxruntime-common|sharp|@napi-rs/canvas|tesseract\\.js|tesseract\\.js-core|pdfjs-dist|ws|cli-progress|electron|protobufjs|@huggingface/tokenizers)/',
  ],
};

module.exports = {
  forbidden: [
    {
      name: 'app-is-pure',
      comment: 'app/ runs in Node and in the browser: no Node built-ins, no native or Node-only modules, no Electron.',
      severity: 'error',
      from: { path: '^app/', pathNot: testFiles },
      to: { ...nodeBuiltins },
    },
    {
      name: 'app-no-native',
      severity: 'error',
      from: { path: '^app/' },
      to: nativeOrNodeOnly,
    },
    {
      name: 'app-imports-only-app',
      comment: 'app/ is the bottom layer.',
      severity: 'error',
      from: { path: '^app/' },
      to: { path: '^(main|renderer|native-models|resources|e2e)/' },
    },
    {
      name: 'renderer-only-app-and-browser-libraries',
      comment: 'The renderer reaches the main side only through the contract client in app/.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(main|native-models|resources|e2e)/' },
    },
    {
      name: 'renderer-no-node',
      severity: 'error',
      from: { path: '^renderer/', pathNot: testFiles },
      to: { ...nodeBuiltins },
    },
    {
      name: 'renderer-no-native',
      severity: 'error',
      from: { path: '^renderer/' },
      to: nativeOrNodeOnly,
    },
    {
      name: 'native-models-no-electron-no-main',
      comment: 'Inference knows nothing of Electron or of the main side.',
      severity: 'error',
      from: { path: '^native-models/' },
      to: { path: ['node_modules/electron/', '^main/', '^renderer/'] },
    },
    {
      name: 'main-not-renderer',
      severity: 'error',
      from: { path: '^main/' },
      to: { path: '^renderer/' },
    },
    {
      name: 'electron-only-in-the-electron-shell',
      comment: 'Everything but main/shells/electron runs without Electron (browser shell, CLI, tests).',
      severity: 'error',
      from: { path: '^(main|app|native-models|renderer)/', pathNot: '^main/shells/electron/' },
      to: { path: 'node_modules/electron/' },
    },
    // Inside main/: store/ (the project file) ← the domain (import, engines, events, settings, jobs, corpus, curation)
    // ← services/ (the contract's handlers) ← composition/ ← the entry points (cli/, shells/).
    {
      name: 'main-store-is-the-bottom',
      comment: 'main/store/ owns the project file and imports nothing of main/ above it (pure derivations live in app/).',
      severity: 'error',
      from: { path: '^main/store/', pathNot: testFiles },
      to: { path: '^(main/(?!store/)|native-models/|renderer/)' },
    },
    {
      name: 'only-the-store-opens-the-project-file',
      comment:
        'better-sqlite3 is imported by main/store/ alone (tests, and testing/rawDatabase.ts for them, may reach under it): ' +
        'every other module goes through ProjectStore and its repositories.',
      severity: 'error',
      from: { pathNot: ['^main/store/', '^testing/', testFiles] },
      to: { path: 'node_modules/better-sqlite3/' },
    },
    {
      name: 'main-domain-below-services',
      comment: 'import, engines, events, settings, jobs, corpus, curation and util serve the services; they never call up.',
      severity: 'error',
      from: { path: '^main/(import|engines|events|settings|jobs|corpus|curation|util)/', pathNot: testFiles },
      to: { path: '^main/(services|composition|cli|shells)/' },
    },
    {
      name: 'main-services-below-entry-points',
      comment: 'The services are shared by both shells and the CLI, so they know none of them.',
      severity: 'error',
      from: { path: '^main/(services|composition)/', pathNot: testFiles },
      to: { path: '^main/(cli|shells)/' },
    },
    {
      name: 'main-composition-only-from-entry-points',
      comment: 'Only the entry points (and tests) assemble a session.',
      severity: 'error',
      from: { path: '^main/(?!composition/|cli/|shells/)', pathNot: testFiles },
      to: { path: '^main/composition/' },
    },
    {
      name: 'product-not-tooling',
      comment:
        'bench/ (benchmarks) and testing/ (fixtures, fakes, generators) are not part of the product: nothing that ships ' +
        '(app/, main/, native-models/, renderer/, resources/scripts/) imports them; only tests do.',
      severity: 'error',
      from: { path: '^(app|main|native-models|renderer|resources)/', pathNot: testFiles },
      to: { path: '^(bench|testing)/' },
    },
    {
      name: 'tests-not-benchmarks',
      comment: 'Tests and test helpers take their fixtures from testing/; benchmarks are leaves that nothing imports.',
      severity: 'error',
      from: { path: '^(app|main|native-models|renderer|resources|testing|e2e)/' },
      to: { path: '^bench/' },
    },
    // Conventions inside the layers (docs/architecture.md); testing/conventions/dependencyRules.test.ts plants a
    // violation of each and expects its rule to fire.
    {
      name: 'onnxruntime-only-in-the-vlm-runtime',
      comment:
        'onnxruntime-node is wrapped by native-models/vlm/runtime/ (sessions, tensors, providers); the rest of the VLM ' +
        'works on that wrapper. Tests, testing/ (the simulated device) and bench/ (provider probes) may reach it, and ' +
        "the bundled engine's second line reader, in its own worker (bundled/ may not import vlm/: engine-families-apart).",
      severity: 'error',
      from: { pathNot: ['^native-models/vlm/runtime/', '^native-models/bundled/lineRecognizerWorker\\.ts$', '^testing/', '^bench/', testFiles] },
      to: { path: 'node_modules/onnxruntime-(node|common)/' },
    },
    {
      name: 'main-reaches-native-models-through-index',
      comment: 'Each engine family (bundled, vlm, remote) is one door for the main side: its index.ts.',
      severity: 'error',
      from: { path: '^main/' },
      to: { path: '^native-models/', pathNot: '^native-models/[^/]+/index\\.ts$' },
    },
    {
      name: 'engine-families-apart',
      comment: 'bundled/, vlm/ and remote/ are separate engines: what they share belongs in app/.',
      severity: 'error',
      from: { path: '^native-models/(bundled|vlm|remote)/' },
      to: { path: '^native-models/(bundled|vlm|remote)/', pathNot: '^native-models/$1/' },
    },
    {
      name: 'renderer-bridge-only-in-transport',
      comment:
        'Only renderer/src/transport/ talks to the main side (the preload bridge, fetch, WebSocket); everything else ' +
        'goes through the contract client. fetch and WebSocket are globals that no import shows: ' +
        'testing/conventions/rendererTransport.test.ts checks those.',
      severity: 'error',
      from: { path: '^renderer/', pathNot: ['^renderer/src/transport/', '^renderer/src/global\\.d\\.ts$'] },
      to: { path: '^renderer/src/rectoBridge\\.ts$' },
    },
    {
      name: 'renderer-logic-without-react',
      comment: 'renderer/src/logic/ is plain functions, testable without a DOM: hooks and components live elsewhere.',
      severity: 'error',
      from: { path: '^renderer/src/logic/', pathNot: testFiles },
      to: { path: 'node_modules/(react|react-dom)/' },
    },
    {
      name: 'renderer-hooks-in-state',
      comment:
        'A hook that renders nothing (a use*.ts file: no JSX) lives in renderer/src/state/, where the next reader looks ' +
        'for state and wiring; components/ keeps components, and the hooks that render them (use*.tsx, returning ' +
        'elements for the workspace to place).',
      severity: 'error',
      from: { path: ['^renderer/src/components/use[A-Z][^/]*\\.ts$', '^renderer/src/components/.*/use[A-Z][^/]*\\.ts$'] },
      to: { path: 'node_modules/react/' },
    },
    {
      name: 'renderer-state-below-components',
      comment: 'renderer/src/state/ holds what components use (state, contract queries, key wiring): it never imports a component.',
      severity: 'error',
      from: { path: '^renderer/src/state/', pathNot: testFiles },
      to: { path: '^renderer/src/components/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
  },
};
