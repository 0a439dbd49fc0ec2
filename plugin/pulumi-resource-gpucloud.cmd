@echo off
rem The gpucloud resource provider plugin on Windows: runs this package's compiled provider with
rem Node.js 22 or later, the node first on PATH unless GPUCLOUD_NODE names another (launch.js
rem beside it, in a plugin installed with `pulumi plugin install --file`).
if defined GPUCLOUD_NODE (set "GPUCLOUD_PLUGIN_NODE=%GPUCLOUD_NODE%") else (set "GPUCLOUD_PLUGIN_NODE=node")
if exist "%~dp0launch.js" (
  "%GPUCLOUD_PLUGIN_NODE%" "%~dp0launch.js" %*
) else (
  "%GPUCLOUD_PLUGIN_NODE%" "%~dp0..\dist\provider\plugin\main.js" %*
)
