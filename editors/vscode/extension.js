// Starts `paradox lsp` for rule files (`.cards`) and stops it with the editor.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("paradox").get("server.path") || "paradox";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "paradox",
    "Paradox language server",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "paradox" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
