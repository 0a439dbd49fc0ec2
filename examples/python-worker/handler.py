"""The endpoint's handler: counts the words of a text and reports its longest word.

In the image it runs under the service's worker SDK; locally the emulator starts it with our
standard-library worker loop (`worker_loop`, on PYTHONPATH for workers the emulator starts):

    npx gpucloud-emulator --worker example/python-worker="python3 handler.py"   (in this folder)

Try it on its own: python3 handler.py --test_input '{"input": {"text": "hello GPU cloud"}}'
"""

import os

import worker_loop

MODEL = os.environ.get("MODEL_NAME", "wordcount")


def handler(job):
    if MODEL != "wordcount":
        raise ValueError("unknown model %r: this image only serves 'wordcount'" % MODEL)
    text = job["input"].get("text")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("input.text must be a non-empty string")
    words = text.split()
    return {"words": len(words), "longest": max(words, key=len), "model": MODEL}


if __name__ == "__main__":
    worker_loop.start({"handler": handler})
