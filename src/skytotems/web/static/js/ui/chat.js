// The table chat beside the log (a tab of the rail's log panel, so the rail keeps one
// scroll area): seated players talk in the players' channel, spectators read it and
// talk in their own (which players never see). Every message is put in the page as
// text (textContent), never as markup. Muting a name and hiding the chat are this
// browser's choices, remembered in localStorage.

import { t } from "../i18n.js";
import { button, el } from "../dom.js";

const MUTED = "skytotems.chat.muted";
const HIDDEN = "skytotems.chat.hidden";
const MAX_CHARS = 300; // the server's default Settings.chat_max_chars (it checks anyway)
const KEPT = 200;

function readMuted() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED) || "[]");
    return new Set(Array.isArray(list) ? list : []);
  } catch {
    return new Set();
  }
}

export class TableChat {
  /** `root`: the chat's tab panel; `say(text)`: sends a message, returns its id (the
   * server's ack or refusal names it), or false if offline. */
  constructor(root, { say }) {
    this.root = root;
    this.say = say;
    this.logTab = document.getElementById("log-tab");
    this.logBox = document.getElementById("log-box");
    this.chatTab = document.getElementById("chat-tab");
    this.toggle = document.getElementById("chat-toggle");
    this.selected = false; // the chat tab is showing
    this.unread = 0;
    this.messages = [];
    this.sent = new Map(); // id of a message sent → its text, until acknowledged or refused
    this.ownIds = new Set(); // ids of the messages this page said (a spectator has no seat)
    this.player = null;
    this.muted = readMuted();
    this.hidden = localStorage.getItem(HIDDEN) === "1";
    this.build();
  }

  build() {
    this.title = el("h2", "sr-only");
    this.title.id = "chat-title";
    this.toggle.addEventListener("click", () => this.setHidden(!this.hidden));
    this.chatTab.addEventListener("click", () => this.select(true));
    this.logTab.addEventListener("click", () => this.select(false));
    for (const tab of [this.logTab, this.chatTab]) {
      tab.addEventListener("keydown", (event) => {
        if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
        event.preventDefault();
        this.select(!this.selected);
        (this.selected ? this.chatTab : this.logTab).focus();
      });
    }
    this.body = el("div", "chat-body");
    this.list = el("div", "chat-messages"); // a log of paragraphs (role=log drops list semantics)
    this.list.id = "chat-messages";
    this.list.setAttribute("role", "log");
    this.list.setAttribute("aria-labelledby", "chat-title");
    this.list.tabIndex = 0;
    this.mutedBox = el("div", "chat-muted");
    this.form = el("form", "chat-form");
    this.input = el("input", "chat-input");
    this.input.id = "chat-input";
    this.input.maxLength = MAX_CHARS;
    this.input.autocomplete = "off";
    this.send = el("button", "btn btn-small btn-primary chat-send");
    this.send.type = "submit";
    this.form.append(this.input, this.send);
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      const id = this.say(text);
      if (id === false) return;
      this.sent.set(id, text);
      this.input.value = "";
    });
    this.body.append(this.list, this.mutedBox, this.form);
    this.root.append(this.title, this.body);
    this.render();
  }

  /** Show the chat (true) or the log (false) in the panel they share. */
  select(chat) {
    this.selected = chat && !this.hidden;
    if (this.selected) this.unread = 0;
    this.render();
  }

  /** Who reads: a player index, or null for a spectator (writes in the spectators' channel). */
  setPlayer(player) {
    this.player = player;
    this.render();
  }

  /** The history a new connection gets in welcome (replaces what was shown). */
  reset(messages) {
    this.messages = [...(messages || [])];
    this.sent.clear(); // a new connection numbers its messages afresh
    this.render();
  }

  /** The server refused message `id` (too long, too many): its text goes back into the
   * input, unless something new was typed since; true if `id` was a chat message. */
  refused(id) {
    if (!this.sent.has(id)) return false;
    if (!this.input.value) this.input.value = this.sent.get(id);
    this.sent.delete(id);
    return true;
  }

  /** Is `message` this page's own (a seat's, or one this page said as a spectator)? */
  isOwn(message) {
    if (this.ownIds.has(message.id)) return true;
    return message.channel === "players" && message.player === this.player && this.player !== null;
  }

  /** Show a new message (`ack`: the id this page sent it under, if it said it); true when
   * it should be read out (someone else's, not muted, said while the log is showing: the
   * chat's own log region is hidden then). */
  add(message, ack = undefined) {
    if (ack !== undefined && this.sent.delete(ack)) this.ownIds.add(message.id);
    if (this.messages.some((m) => m.id === message.id)) return false;
    this.messages.push(message);
    if (this.messages.length > KEPT) this.messages.splice(0, this.messages.length - KEPT);
    const own = this.isOwn(message);
    const unseen = !this.selected && !own && !this.muted.has(message.name);
    if (unseen) this.unread += 1;
    this.render();
    return unseen && !this.hidden;
  }

  setHidden(hidden) {
    this.hidden = hidden;
    localStorage.setItem(HIDDEN, hidden ? "1" : "0");
    this.selected = !hidden;
    this.unread = 0;
    this.render();
  }

  setMuted(name, muted) {
    if (muted) this.muted.add(name);
    else this.muted.delete(name);
    localStorage.setItem(MUTED, JSON.stringify([...this.muted]));
    this.renderMessages();
  }

  render() {
    this.title.textContent = t("chat.title");
    this.toggle.textContent = t(this.hidden ? "chat.show" : "chat.hide");
    this.chatTab.hidden = this.hidden;
    this.chatTab.textContent = this.unread ? t("chat.tab_unread", { n: this.unread }) : t("chat.title");
    this.chatTab.setAttribute("aria-selected", String(this.selected));
    this.logTab.setAttribute("aria-selected", String(!this.selected));
    this.chatTab.tabIndex = this.selected ? 0 : -1;
    this.logTab.tabIndex = this.selected ? -1 : 0;
    this.root.hidden = !this.selected;
    this.logBox.hidden = this.selected;
    const spectator = this.player === null;
    this.input.placeholder = t(spectator ? "chat.placeholder_spectator" : "chat.placeholder");
    this.input.setAttribute("aria-label", t(spectator ? "chat.message_spectator" : "chat.message"));
    this.send.textContent = t("chat.send");
    this.renderMessages();
  }

  renderMessages() {
    this.list.replaceChildren();
    const shown = this.messages.filter((m) => !this.muted.has(m.name));
    if (!shown.length) this.list.appendChild(el("p", "chat-empty", t("chat.empty")));
    for (const message of shown) this.list.appendChild(this.item(message));
    this.list.scrollTop = this.list.scrollHeight; // the newest message in sight
    this.mutedBox.replaceChildren();
    for (const name of this.muted) {
      if (!this.messages.some((m) => m.name === name)) continue;
      const unmute = button(t("chat.unmute", { name }), { className: "btn btn-small btn-quiet", onClick: () => this.setMuted(name, false) });
      this.mutedBox.appendChild(unmute);
    }
  }

  item(message) {
    const li = el("p", `chat-message chat-${message.channel}`);
    li.dataset.id = String(message.id);
    const who = el("span", "chat-name", message.name);
    who.dataset.userContent = "";
    if (message.channel === "spectators") who.appendChild(el("span", "chat-channel", ` (${t("chat.spectator")})`));
    const text = el("span", "chat-text", message.text); // text, never markup
    text.dataset.userContent = "";
    li.append(who, el("span", "chat-sep", t("log.colon")), text);
    if (!this.isOwn(message)) {
      const mute = button(t("chat.mute_short"), { className: "btn btn-small btn-quiet chat-mute", onClick: () => this.setMuted(message.name, true) });
      mute.setAttribute("aria-label", t("chat.mute", { name: message.name }));
      mute.dataset.tip = t("chat.mute", { name: message.name });
      li.appendChild(mute);
    }
    return li;
  }
}
