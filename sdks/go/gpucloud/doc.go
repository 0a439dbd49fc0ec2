// Manage a GPU cloud as code: Pods, serverless endpoints, network volumes, templates, registry auth, billing and smoke-tested rollouts, with a local emulator of the whole service.
package gpucloud
