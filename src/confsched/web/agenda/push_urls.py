"""Web Push's pages: a person's devices, opting in and out (web/agenda/push.py), included by
web/urls.py under the "web" namespace."""

from django.urls import URLPattern, path

from confsched.web.agenda import push

urlpatterns: list[URLPattern] = [
    path("<slug:event>/agenda/devices/", push.devices, name="push_devices"),
    path("<slug:event>/agenda/devices/subscribe", push.subscribe, name="push_subscribe"),
    path("<slug:event>/agenda/devices/<int:pk>/off", push.turn_off, name="push_turn_off"),
]
