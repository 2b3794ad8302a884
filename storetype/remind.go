package storetype

// TimerRemind fires planned reminders.
const TimerRemind TimerKind = "reminder.due"
