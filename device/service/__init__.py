"""The device as a systemd service: the loop (``loop``), ``sd_notify`` (``notify``), the
watchdog (``watchdog``) and the self-test, split into its ``report``, the stand-alone ``checks``
of ``spielleiter selftest`` and the ``probe`` of a running box.

Import the modules themselves (``from spielleiter.device.service.loop import run_service``); this
package imports nothing eagerly, so ``notify`` stays cheap for whoever needs only it.
"""
