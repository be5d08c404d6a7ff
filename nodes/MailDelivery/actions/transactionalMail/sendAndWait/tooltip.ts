/**
 * What the editor shows on the node while its run waits (n8n evaluates it with the node's parameters only, not
 * its output): who it waits for and until when, from Limit Wait Time as written (an expression in it is not
 * evaluated there: "at its time limit"). Written without `}}` inside, which would end n8n's expression.
 */
export const WAITING_TOOLTIP = `={{ (function (p) {
	if (p.operation !== "sendAndWait") return "";
	var text = "Execution will continue once the person answers the mail";
	var limit = ((p.options || {}).limitWaitTime || {}).values;
	if (!limit) return text + ". It waits without a time limit (Options → Limit Wait Time).";
	var interval = (limit.limitType || "afterTimeInterval") === "afterTimeInterval";
	var amount = limit.resumeAmount === undefined ? 1 : limit.resumeAmount;
	var unit = limit.resumeUnit || "hours";
	var when = interval
		? (typeof amount === "number" ? "after " + amount + " " + (amount === 1 ? unit.slice(0, -1) : unit) : "")
		: (typeof limit.maxDateAndTime === "string" && limit.maxDateAndTime.charAt(0) !== "=" ? "at " + limit.maxDateAndTime : "");
	return text + ", or without an answer " + (when || "at its time limit") + ".";
})($rawParameter) }}`;
