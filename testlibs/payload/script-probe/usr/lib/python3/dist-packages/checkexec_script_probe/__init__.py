"""The module of the checkexec-script-probe package."""
GREETING = 'checkexec-script-probe imported'
