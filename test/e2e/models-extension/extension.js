// VS Code accepts a LanguageModelChatProvider only for a vendor that the registering extension declares in
// contributes.languageModelChatProviders; this one declares "skeptic-e2e" and registers whatever provider the
// extension-host tests hand it, so the provider itself (forwarding to the fake Messages API) stays in the tests.
const vscode = require('vscode');

exports.VENDOR = 'skeptic-e2e';

exports.activate = () => ({
  register: (provider) => vscode.lm.registerLanguageModelChatProvider(exports.VENDOR, provider),
});
